"""Placeholder replaced below."""
BATCHES = 0
