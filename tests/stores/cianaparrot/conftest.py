from __future__ import annotations

import pytest

from daycare_gui.stores.cianaparrot import KIND
from tests.stores.cianaparrot.builder import make_deployment


@pytest.fixture
def deployment(tmp_path):
    return make_deployment(tmp_path / "ciana")


@pytest.fixture
def opened(deployment):
    store = KIND.open(deployment)
    yield store
    store.close()
