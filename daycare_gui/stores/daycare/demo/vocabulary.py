"""Words for the large demo's generated text: many common words, a long tail of rare ones, some non-ASCII.

Full-text search needs both: common words match thousands of records, rare ones a handful.
"""

from __future__ import annotations

COMMON = (
    "the a to and of in for on with is it that this you can I we please check thanks "
    "calendar meeting email reminder tomorrow today weekend morning evening dinner lunch trip flight "
    "hotel booking budget invoice payment groceries shopping list server backup disk container deploy build "
    "test error fix update summary report notes draft review plan week month project blog photo file folder "
    "script python code run result output search find book read write send call message schedule task "
    "done ready later maybe sure great ok yes no need want should could would will about after before "
    "café naïve Zürich"
).split()

RARE = (
    "quokka serendipity zeitgeist kerfuffle defenestration sesquipedalian palimpsest borborygmus "
    "lollygag petrichor smörgåsbord jalapeño façade 日本語 東京 añejo crème brûlée Ørsted Kraków "
    "xylophone quixotic flibbertigibbet snollygoster cattywampus gobbledygook"
).split()

TOOLS = ("web_search", "read_file", "write_file", "exec", "calendar_list", "gmail_search", "memory_write",
         "shopping_list_add", "reminder_create")
