"""Lazy JSON and JSONL reading that reports bad lines and files as problems instead of raising."""

from daycare_gui.stores.common.files.jsonfile import parse_json, read_json, type_name
from daycare_gui.stores.common.files.jsonl import BadLine, iter_jsonl

__all__ = ["BadLine", "iter_jsonl", "parse_json", "read_json", "type_name"]
