"""Daycare's legacy (files-only) generation offered through the shared capabilities."""
