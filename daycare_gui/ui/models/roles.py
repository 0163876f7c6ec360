"""Custom item-data roles, named once for every model and view."""

from PySide6.QtCore import Qt

RecordRole = Qt.ItemDataRole.UserRole + 1  # the typed record behind a row
SortRole = Qt.ItemDataRole.UserRole + 2  # a value that sorts naturally (numbers, times)
KeyRole = Qt.ItemDataRole.UserRole + 3  # the row's key (agent id, record id, …)
StateRole = Qt.ItemDataRole.UserRole + 4  # "stuck", "error", "placeholder", … for delegates and styles
