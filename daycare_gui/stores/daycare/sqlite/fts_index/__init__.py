"""Full-text search across session histories: an FTS5 index outside the data directory.

:mod:`.index` (where the index lives, its tables), :mod:`.build` (incremental, cancellable indexing and
rebuild detection), :mod:`.query` (safe query parsing, filters in SQL, grouped results).
"""

from daycare_gui.stores.daycare.sqlite.fts_index.build import BuildResult, update_index
from daycare_gui.stores.daycare.sqlite.fts_index.index import MARK_CLOSE, MARK_OPEN, SearchIndex, index_path
from daycare_gui.stores.daycare.sqlite.fts_index.query import SearchFilter, SearchResults, search

__all__ = ["BuildResult", "MARK_CLOSE", "MARK_OPEN", "SearchFilter", "SearchIndex", "SearchResults",
           "index_path", "search", "update_index"]
