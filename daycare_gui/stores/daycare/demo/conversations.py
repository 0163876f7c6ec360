"""Scripted conversations for the small demo: each function fills one session through a :class:`Chat`.

They read like real Daycare sessions (Markdown answers with headings, lists, code and links; tool calls that
match the answers) so the conversation view has something worth looking at. ``ctx`` carries ids and file
references the script needs; every script returns nothing and only appends records.
"""

from __future__ import annotations

from daycare_gui.stores.daycare.demo.history import Chat

FIRST_MESSAGE_PROMPT = (
    "<first_message>The user is new. Introduce yourself in one sentence, then help with their request.</first_message>"
)


def trip_lisbon(c: Chat, ctx: dict) -> None:
    c.user("Can you plan a long weekend in Lisbon for me? Arriving Friday 13 March around noon, leaving Monday evening.",
           first_prompt=FIRST_MESSAGE_PROMPT if ctx.get("first") else None)
    search = c.tool_call("web_search", {"query": "Lisbon events 13-16 March 2026", "count": 5})
    c.assistant("Let me check what is on that weekend.", tool_calls=[search])
    c.tool_result(search, "1. Lisbon Half Marathon — Sun 15 Mar (bridge closed 8:00–13:00)\n"
                  "2. Gulbenkian: 'Modern Portuguese Tiles' exhibition\n3. Time Out Market late opening Fri/Sat",
                  {"query": "Lisbon events 13-16 March 2026", "resultCount": 3})
    c.assistant(
        "# Lisbon, 13–16 March\n\n"
        "## Friday — Baixa & Alfama\n"
        "- Check in, lunch at **Time Out Market** (it stays open late on Friday)\n"
        "- Walk up to *Miradouro de Santa Luzia* for sunset\n"
        "- Dinner with fado in Alfama — book ahead\n\n"
        "## Saturday — Belém\n"
        "1. Tram 15 to Belém, pastéis at the original bakery\n"
        "2. Jerónimos Monastery (buy tickets [online](https://www.museusemonumentos.pt/))\n"
        "3. Afternoon at the [Gulbenkian](https://gulbenkian.pt/) tiles exhibition\n\n"
        "## Sunday — Sintra day trip\n"
        "> The half marathon closes the 25 de Abril bridge until 13:00, so take the train from Rossio.\n\n"
        "## Monday\n"
        "Slow morning in Príncipe Real, then the metro to the airport (Red line, ~25 min).\n\n"
        "Want me to put the fado dinner and the Sintra train in your calendar?")
    c.user("Yes please, and remind me Friday morning to pack the adapter.", gap=180)
    cal = c.tool_call("calendar_create", {"title": "Fado dinner, Alfama", "start": "2026-03-13T20:30:00+00:00",
                                          "durationMinutes": 150})
    rem = c.tool_call("reminder_create", {"text": "Pack the EU plug adapter", "at": "2026-03-13T07:30:00+00:00"})
    c.assistant("Adding both now.", tool_calls=[cal, rem])
    c.tool_result(cal, "Created event evt_9f2 'Fado dinner, Alfama'", {"eventId": "evt_9f2", "created": True})
    c.tool_result(rem, "Reminder scheduled for 2026-03-13 07:30 UTC", {"reminderId": "rem_31a", "scheduled": True})
    c.assistant("Done: the fado dinner is in your calendar for Friday 20:30 and I'll ping you at 7:30 that "
                "morning about the adapter. 🇵🇹")


def photo_script(c: Chat, ctx: dict) -> None:
    c.user("I exported my phone photos. Can you give me a script that renames them to the date they were taken? "
           "Here's the file list.", files=[ctx["file_photos"]])
    c.assistant(
        "Sure. This uses the EXIF `DateTimeOriginal` tag and falls back to the file's modification time:\n\n"
        "```python\nfrom datetime import datetime\nfrom pathlib import Path\n\nfrom PIL import Image\n\n"
        "def taken_at(path: Path) -> datetime:\n    try:\n        exif = Image.open(path)._getexif() or {}\n"
        "        return datetime.strptime(exif[36867], \"%Y:%m:%d %H:%M:%S\")\n    except (KeyError, OSError):\n"
        "        return datetime.fromtimestamp(path.stat().st_mtime)\n\n"
        "for photo in sorted(Path(\"~/Pictures/export\").expanduser().glob(\"*.jpg\")):\n"
        "    target = photo.with_name(taken_at(photo).strftime(\"%Y-%m-%d_%H%M%S\") + photo.suffix.lower())\n"
        "    if not target.exists():\n        photo.rename(target)\n```\n\n"
        "Run it once with `print(photo, target)` instead of `rename` to check the names first. "
        "Your list has **412** files, 9 of them `.HEIC` — those need `pillow-heif` installed.")
    c.user("What happens with two photos taken in the same second?", gap=95)
    c.assistant("The second one is skipped because `target.exists()` is true. If you'd rather keep both, "
                "append a counter:\n\n```python\nn = 1\nwhile target.exists():\n"
                "    target = target.with_stem(f\"{target.stem}-{n}\")\n    n += 1\n```")


def expenses_python(c: Chat, ctx: dict) -> None:
    c.user("How much did we spend on groceries in February? Bank export attached.", files=[ctx["file_csv"]])
    code = ("import csv, io\nrows = list(csv.DictReader(io.StringIO(read_file(\"" + ctx["csv_path"] + "\"))))\n"
            "feb = [r for r in rows if r['date'].startswith('2026-02')]\n"
            "groceries = [r for r in feb if r['category'] == 'Groceries']\n"
            "total = sum(float(r['amount']) for r in groceries)\n"
            "print(f'{len(groceries)} grocery payments, total {total:.2f} EUR')\n"
            "shops = {}\nfor r in groceries:\n    shops[r['payee']] = shops.get(r['payee'], 0) + float(r['amount'])\n"
            "print(sorted(shops.items(), key=lambda kv: -kv[1])[:3])\n"
            "say(f'Groceries in February: {total:.2f} EUR')")
    run = c.tool_call("run_python", {"code": code})
    asked = c.assistant("I'll total it up from the export.", tool_calls=[run])
    c.python_run(run, code,
                 steps=[("read_file", {"path": ctx["csv_path"]},
                         "date,payee,category,amount\n2026-02-01,Lidl,Groceries,54.20\n… (318 rows)", False),
                        ("say", {"text": "Groceries in February: 486.73 EUR"}, "ok", False)],
                 prints=["23 grocery payments, total 486.73 EUR",
                         "[('Lidl', 211.4), ('Edeka', 142.9), ('Markthalle Neun', 61.5)]"],
                 output="Groceries in February: 486.73 EUR")
    c.tool_result(run, "23 grocery payments, total 486.73 EUR\n[('Lidl', 211.4), ('Edeka', 142.9), ('Markthalle Neun', 61.5)]",
                  {"output": "Groceries in February: 486.73 EUR", "toolCallCount": 2, "isError": False})
    c.rewrite(asked, "Groceries in February: 486.73 EUR", "run_python_say_after_trim")
    c.assistant("**€486.73** across 23 payments. Top shops:\n\n| Shop | Total |\n|---|---|\n| Lidl | €211.40 |\n"
                "| Edeka | €142.90 |\n| Markthalle Neun | €61.50 |\n\nThat's about 12% less than January.")


def deploy_check_failure(c: Chat, ctx: dict) -> None:
    c.user("Run the pre-deploy checks for the blog before I push the new theme.")
    code = ("status = exec('git status --porcelain', cwd='~/developer/blog')\n"
            "print('dirty files:', len(status.splitlines()))\n"
            "build = exec('npm run build', cwd='~/developer/blog')\nprint(build[-200:])\n")
    run = c.tool_call("run_python", {"code": code})
    asked = c.assistant("Running the checks.", tool_calls=[run])
    c.python_run(run, code,
                 steps=[("exec", {"command": "git status --porcelain", "cwd": "~/developer/blog"},
                         " M themes/paper/layout.html\n?? themes/paper/dark.css", False),
                        ("exec", {"command": "npm run build", "cwd": "~/developer/blog"},
                         "Error: Cannot find module 'sass'\nRequire stack:\n- /blog/node_modules/vite/dist/node", True)],
                 prints=["dirty files: 2"], output="",
                 error="ToolError: exec failed: npm run build exited with code 1 (Cannot find module 'sass')")
    c.tool_result(run, "Python run failed: npm run build exited with code 1 (Cannot find module 'sass')",
                  {"output": "", "toolCallCount": 2, "isError": True}, is_error=True)
    c.rewrite(asked, "Running the checks… the build failed.", "run_python_failure_trim")
    c.assistant("## ❌ Not ready to deploy\n\n- `git status`: 2 uncommitted files in `themes/paper/`\n"
                "- `npm run build` fails: **Cannot find module 'sass'**\n\nFix: `npm install --save-dev sass`, "
                "commit `dark.css`, then ask me to run the checks again.")


def daily_digest(c: Chat, ctx: dict) -> None:
    # ``run_text``: the system message Daycare's scheduler posts for a real cron run (the demo's task agents)
    c.user(ctx.get("run_text") or "[cron] Daily digest: summarise unread email, today's calendar and anything "
           "due this week. Keep it under 150 words.")
    mail = c.tool_call("gmail_search", {"query": "is:unread newer_than:1d", "limit": 20})
    cal = c.tool_call("calendar_list", {"from": "today", "to": "today"})
    c.assistant("", tool_calls=[mail, cal])
    c.tool_result(mail, "4 unread: Landlord (heating service Thu), GitHub (2 PR reviews), Lufthansa (check-in open)",
                  {"count": 4, "hasMore": False})
    c.tool_result(cal, "09:30 Stand-up · 13:00 Lunch with Sam · 17:00 Dentist", {"count": 3})
    c.assistant("### ☀️ Today\n- 09:30 stand-up\n- 13:00 lunch with **Sam**\n- 17:00 dentist\n\n"
                "### 📬 Email\n- Heating service on **Thursday** — someone must be home 8–12\n"
                "- 2 PR reviews waiting on GitHub\n- Lufthansa check-in is open for Friday\n\n"
                "### This week\n- Pay the electricity bill (due Wed)")


def heartbeat_tick(c: Chat, ctx: dict) -> None:
    c.user(ctx.get("run_text") or "[heartbeat] Check inbox: anything that needs a reply today? Plant care: water the "
           "monstera if it's been a week.")
    c.assistant("Checked: no urgent mail. The monstera was last watered 8 days ago — I sent Alex a reminder.",
                tool_calls=[])
    c.note("Heartbeat finished: 2 tasks, 1 notification sent")


def flight_research(c: Chat, ctx: dict) -> None:
    c.user("Find the three cheapest direct flights Berlin → Lisbon on 13 March, arriving before 14:00.")
    s1 = c.tool_call("web_search", {"query": "BER LIS direct flights 13 March 2026", "count": 8})
    c.assistant("Searching fares.", tool_calls=[s1])
    c.tool_result(s1, "easyJet U2 5231 07:05→09:20 €89 · TAP TP 535 10:05→12:25 €142 · Ryanair FR 1882 06:30→08:45 €76",
                  {"results": 3})
    c.assistant("| Flight | Departs | Arrives | Price |\n|---|---|---|---|\n| Ryanair FR1882 | 06:30 | 08:45 | €76 |\n"
                "| easyJet U2 5231 | 07:05 | 09:20 | €89 |\n| TAP TP535 | 10:05 | 12:25 | €142 |\n\n"
                "TAP includes a checked bag; the others charge ~€35 for one.")
    c.note("Subagent finished; result sent to parent agent")


def recipes(c: Chat, ctx: dict) -> None:
    c.user("we have chickpeas, spinach, half a lemon and feta. dinner idea for 2? nothing over 30 min")
    c.assistant("## Chickpea, spinach & feta skillet (25 min)\n\n**You need:** 1 tin chickpeas, 200 g spinach, "
                "100 g feta, ½ lemon, garlic, cumin, olive oil\n\n1. Fry 2 sliced garlic cloves in oil, add 1 tsp cumin\n"
                "2. Add drained chickpeas, fry 8 min until crisp at the edges\n3. Wilt the spinach in, season\n"
                "4. Crumble feta on top, squeeze the lemon, serve with bread\n\nVariation: crack two eggs into wells "
                "for the last 6 minutes, *shakshuka-style*.")
    c.user("perfect, add feta to the shopping list, we're out after this", gap=300)
    add = c.tool_call("shopping_list_add", {"items": ["feta"]})
    c.assistant("", tool_calls=[add])
    c.tool_result(add, "Added 1 item", {"added": 1, "listSize": 7})
    c.assistant("Added feta — the list has 7 items now.")


def homework(c: Chat, ctx: dict) -> None:
    c.user("whats 3/4 + 2/3 my teacher says its not 5/7")
    c.assistant("Your teacher is right! You can't add the tops and bottoms separately. First make the bottoms "
                "the same:\n\n- 3/4 = **9/12**\n- 2/3 = **8/12**\n\nNow add the tops: 9 + 8 = 17, so the answer is "
                "**17/12**, which is the same as 1 and 5/12. Want to try one on your own?")
    c.user("ok 1/2 + 1/3", gap=60)
    c.assistant("Let's see your answer first — what do you get when you make both bottoms 6?")
    c.user("5/6!!", gap=45)
    c.assistant("Yes! 🎉 3/6 + 2/6 = 5/6. You've got it.")


def memory_compaction(c: Chat, ctx: dict) -> None:
    c.user("[memory] Process new history from 3 sessions and update entity files.")
    w = c.tool_call("memory_write", {"entity": "people", "record": "sam", "content": "Alex's flatmate; vegetarian; "
                                     "shares the shopping list."})
    c.assistant("Found one new fact about Sam.", tool_calls=[w])
    c.tool_result(w, "Updated people.md#sam", {"entity": "people", "record": "sam", "created": False})
    c.note("Memory pass complete: 1 record updated, 0 created")


def ops_disk(c: Chat, ctx: dict) -> None:
    c.user("Disk on the home server is at 91%, what's eating it?")
    ex = c.tool_call("exec", {"command": "du -xh --max-depth=1 /srv | sort -h | tail -5"})
    c.assistant("Checking the largest folders under `/srv`.", tool_calls=[ex])
    c.tool_result(ex, "2.1G\t/srv/backups-old\n4.8G\t/srv/nextcloud\n18G\t/srv/docker\n212G\t/srv/media\n238G\t/srv",
                  {"exitCode": 0, "stdout": "…", "stderr": ""})
    c.assistant("Mostly `/srv/media` (212 GB). Quick wins:\n\n- `docker system prune -af` would free most of "
                "`/srv/docker` (18 GB)\n- `/srv/backups-old` (2.1 GB) is from 2024\n\nShould I prune Docker now?")
    c.user("yes prune docker", gap=120)
    ex2 = c.tool_call("exec", {"command": "docker system prune -af"})
    c.assistant("", tool_calls=[ex2])
    c.tool_result(ex2, "Total reclaimed space: 15.3GB", {"exitCode": 0, "stdout": "Total reclaimed space: 15.3GB",
                                                          "stderr": ""})
    c.assistant("Reclaimed **15.3 GB**; the disk is at 84% now.")


def library_lookup(c: Chat, ctx: dict) -> None:
    c.user("Which of my books mention Stoicism? Check the knowledge folder.")
    r = c.tool_call("read_file", {"path": "~/knowledge/reading-list.md"})
    c.assistant("", tool_calls=[r])
    c.tool_result(r, "Error: ENOENT: no such file or directory", {"error": "not found"}, is_error=True)
    c.assistant("I couldn't find `reading-list.md` in your knowledge folder. Is it under `documents/` instead?")


def notes_only(c: Chat, ctx: dict) -> None:
    c.note("Agent booted")
    c.note("Session restored after engine restart")


SCRIPTS = {
    "trip": trip_lisbon, "photos": photo_script, "expenses": expenses_python, "deploy": deploy_check_failure,
    "digest": daily_digest, "heartbeat": heartbeat_tick, "flights": flight_research, "recipes": recipes,
    "homework": homework, "memory": memory_compaction, "ops": ops_disk, "library": library_lookup,
    "notes": notes_only,
}
