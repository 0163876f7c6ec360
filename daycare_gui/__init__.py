"""daycare-gui: see and safely change everything in a Daycare data directory."""

__version__ = "0.1.0"
