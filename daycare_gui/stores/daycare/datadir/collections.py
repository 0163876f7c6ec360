"""The data directory's lists, for the PG store's Collections: settings, auth, users' secrets, processes,
mini apps' code folders and users' databases. Each is read once per open (they are small), joined to its
rows in the database where it has some; every value has been masked by the module that read it."""

from __future__ import annotations

from daycare_gui.stores.daycare.datadir import config, runtime_files, skill_versions
from daycare_gui.stores.daycare.datadir.config import Entry
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import Collection, Row

PREFIX = "files:"
GROUP = "Data directory"

# id → (title, columns)
LISTS = {
    "skill_versions": ("Skill versions", ("user", "skill", "version", "changed since")),
    "settings": ("settings.json", ("key", "value")),
    "auth": ("auth.json providers", ("provider", "type", "keys (values never shown)")),
    "user_secrets": ("User secrets", ("user", "name", "display name", "description",
                                      "variables (values never shown)")),
    "processes": ("Process folders", ("process", "name", "status", "backend", "mounts", "log")),
    "apps": ("Mini app code folders", ("user", "app", "title", "code version", "state", "files", "folder")),
    "databases": ("User databases", ("user", "database", "name", "files", "size", "folder")),
}


class DataDirLists:
    """Not a capability itself: the PG store's Collections routes ids starting with ``files:`` here."""

    def __init__(self, store, problems: ProblemLog) -> None:
        self.store = store  # DaycarePgStore: its paths, and its database for the joins
        self.problems = problems
        self._cache: dict[str, list[Entry]] = {}

    @staticmethod
    def owns(collection_id: str) -> bool:
        return collection_id.startswith(PREFIX)

    def collections(self) -> list[Collection]:
        return [Collection(PREFIX + k, title, cols, group=GROUP) for k, (title, cols) in LISTS.items()
                if self.entries(k)]

    def entries(self, name: str) -> list[Entry]:
        if name not in self._cache:
            self._cache[name] = self._read(name)
        return self._cache[name]

    def _users_dir(self):
        return self.store.paths.data_dir / "users"

    def _read(self, name: str) -> list[Entry]:
        p, problems = self.store.paths, self.problems
        if name == "skill_versions":
            docs = self.store.data_dir_documents()
            return skill_versions.version_entries(docs.files(), problems) if docs is not None else []
        if name == "settings":
            return config.settings_entries(p.config_dir, problems)
        if name == "auth":
            return config.auth_entries(p.config_dir, problems)
        if name == "user_secrets":
            return config.user_secret_entries(self._users_dir(), problems)
        if name == "processes":
            rows = {r["id"]: r for r in self._rows("processes", "id, name, status, env")}
            return runtime_files.process_entries(p.data_dir, rows, problems)
        if name == "apps":
            rows = {(r["user_id"], r["id"]): r for r in self._rows("mini_apps", "user_id, id, title, code_version")}
            return runtime_files.app_entries(self._users_dir(), rows, problems)
        if name == "databases":
            names = {(r["user_id"], r["id"]): r["name"] for r in self._rows("psql_databases", "user_id, id, name")}
            return runtime_files.database_entries(self._users_dir(), names, problems)
        return []

    def _rows(self, table: str, columns: str) -> list[dict]:
        if not self.store.has(table):
            return []
        wanted = [c.strip() for c in columns.split(",")]
        if not set(wanted) <= set(self.store.db.columns(table)):
            return []
        try:
            return self.store.db.mappings(f'SELECT {columns} FROM "{table}"{self.store.current(table)}')
        except Exception as exc:  # a join that cannot be made still lists the folders
            self.problems.add(self.store.title, f"cannot read {table} to join its folders: {exc}", severity="warning")
            return []

    def size(self, collection_id: str) -> int:
        return len(self.entries(collection_id[len(PREFIX):]))

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        entries = self.entries(collection_id[len(PREFIX):])[max(0, int(offset)): max(0, int(offset)) + int(limit)]
        return [Row(e.key, e.values, raw=e.raw, markdown=e.markdown, problem=e.problem) for e in entries]

    def counts(self) -> dict[str, int]:
        return {name: len(self.entries(name)) for name in LISTS}


def data_dir_counts(documents, lists: DataDirLists) -> dict:
    """What ``inspect --json`` says of the files beside the store: skills per source (derived copies apart,
    never counted as skills), agents with prompt files, processes, user databases, apps with code folders."""
    from daycare_gui.stores.daycare.datadir.agent_files import PROMPT
    from daycare_gui.stores.daycare.datadir.skills import ACTIVE, HISTORY, SOURCES

    files = documents.files()
    per_source = {s: sum(1 for d in files if d.source == s) for s in SOURCES}
    return {
        "skills": per_source,
        "skill_activation_copies": sum(1 for d in files if d.source == ACTIVE),
        "skill_earlier_versions": sum(1 for d in files if d.source == HISTORY),
        "agents_with_prompt_files": len({d.folder for d in files if d.source == PROMPT}),
        "processes": len(lists.entries("processes")),
        "user_databases": len(lists.entries("databases")),
        "apps_with_code_folders": len({e.raw["user"] + "/" + e.raw["app"] for e in lists.entries("apps")}),
        "auth_providers": len(lists.entries("auth")),
        "user_secrets": len(lists.entries("user_secrets")),
    }
