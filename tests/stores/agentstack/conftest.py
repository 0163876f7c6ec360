import pytest

from daycare_gui.stores import registry
from tests.stores.agentstack.builder import Builder


@pytest.fixture
def build(tmp_path):
    """``build()`` → a Builder for ``tmp_path/proj/data/aistack.db`` (or another name/generation)."""

    def make(name: str = "aistack.db", generation: str = "current", **kw) -> Builder:
        return Builder(tmp_path / "proj" / "data" / name, generation, **kw)

    return make


@pytest.fixture
def opened():
    stores = []

    def open_(path, **kw):
        store = registry.open_store(path, kind="agentstack", **kw)
        stores.append(store)
        return store

    yield open_
    for store in stores:
        store.close()
