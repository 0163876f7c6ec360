"""Store kinds: the contract (``api``), neutral records (``records``), the registry, shared helpers
(``common``) and one package per agent system. Nothing under here imports Qt."""
