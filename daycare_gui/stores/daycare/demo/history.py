"""A small builder that turns a scripted conversation into Daycare ``AgentHistoryRecord`` values.

Records come out as ``(type, at, data)`` where ``data`` is the record without ``type``/``at`` — exactly what
``session_history`` stores. Shapes follow seed 000 and Daycare's ``agentTypes.ts``; tool calls are shaped like
pi-ai's ``ToolCall`` and tool results like ``ToolExecutionResult``.
"""

from __future__ import annotations

import base64
import random

from daycare_gui.stores.daycare.demo.ids import token

# provider → models the demo agents use (a few, so token stats have several rows).
MODELS = {
    "anthropic": ("claude-sonnet-4-5", "claude-haiku-4-5"),
    "openai": ("gpt-5", "gpt-5-mini"),
    "openrouter": ("google/gemini-2.5-pro",),
}


def token_size(rng: random.Random, scale: int = 1) -> dict:
    inp = rng.randint(800, 9000) * scale
    out = rng.randint(40, 1200) * scale
    cache_read = rng.choice((0, 0, rng.randint(500, 6000) * scale))
    cache_write = rng.choice((0, rng.randint(100, 2000) * scale))
    return {"input": inp, "output": out, "cacheRead": cache_read, "cacheWrite": cache_write,
            "total": inp + out + cache_read + cache_write}


class Chat:
    """Appends records with a moving clock; ``gap`` values are seconds after the previous record."""

    def __init__(self, rng: random.Random, start_ms: int, provider: str = "anthropic", model: str = "claude-sonnet-4-5"):
        self.rng = rng
        self.t = start_ms
        self.provider = provider
        self.model = model
        self.records: list[tuple[str, int, dict]] = []

    # -- clock -------------------------------------------------------------------------------------------
    def _tick(self, gap: float | None) -> int:
        seconds = gap if gap is not None else self.rng.uniform(2, 40)
        self.t += int(seconds * 1000) + self.rng.randint(0, 999)
        return self.t

    def _add(self, kind: str, gap: float | None, data: dict) -> int:
        at = self._tick(gap)
        self.records.append((kind, at, data))
        return at

    # -- record kinds --------------------------------------------------------------------------------------
    def user(self, text: str, files: list[dict] | None = None, first_prompt: str | None = None,
             gap: float | None = None) -> int:
        data: dict = {"text": text, "files": files or []}
        if first_prompt is not None:
            # The engine prepended a first-message prompt; the text stored is the combined one.
            data["text"] = f"{first_prompt}\n\n{text}"
            data["firstMessagePrepended"] = True
            data["firstMessagePrompt"] = first_prompt
        return self._add("user_message", gap, data)

    def tool_call(self, name: str, arguments: dict) -> dict:
        prefix = "toolu_01" if self.provider == "anthropic" else "call_"
        return {"type": "toolCall", "id": prefix + token(self.rng, 22), "name": name, "arguments": arguments}

    def assistant(self, text: str, tool_calls: list[dict] | None = None, files: list[dict] | None = None,
                  tokens: bool = True, gap: float | None = None) -> int:
        entry = {"provider": self.provider, "model": self.model, "size": token_size(self.rng)} if tokens else None
        return self._add("assistant_message", gap, {"text": text, "files": files or [],
                                                     "toolCalls": tool_calls or [], "tokens": entry})

    def tool_result(self, call: dict, text: str, typed: dict, is_error: bool = False, gap: float | None = None) -> int:
        at = self._tick(gap)
        message = {"role": "toolResult", "toolCallId": call["id"], "toolName": call["name"],
                   "content": [{"type": "text", "text": text}], "isError": is_error, "timestamp": at}
        self.records.append(("tool_result", at, {"toolCallId": call["id"],
                                                 "output": {"toolMessage": message, "typedResult": typed}}))
        return at

    def python_run(self, call: dict, code: str, steps: list[tuple[str, dict, str, bool]], prints: list[str],
                   output: str, error: str | None = None) -> None:
        """The four ``rlm_*`` records of one ``run_python`` execution (``steps`` = inner tool calls)."""
        preamble = PYTHON_PREAMBLE
        self._add("rlm_start", 0.2, {"toolCallId": call["id"], "code": code, "preamble": preamble})
        printed: list[str] = []
        for count, (tool_name, tool_args, tool_result, tool_error) in enumerate(steps, start=1):
            printed = prints[: count]
            self._add("rlm_tool_call", 0.4, {
                "toolCallId": call["id"], "snapshot": self._snapshot(), "printOutput": printed,
                "toolCallCount": count, "toolName": tool_name, "toolArgs": tool_args})
            self._add("rlm_tool_result", 1.5, {"toolCallId": call["id"], "toolName": tool_name,
                                               "toolResult": tool_result, "toolIsError": tool_error})
        complete = {"toolCallId": call["id"], "output": output, "printOutput": prints,
                    "toolCallCount": len(steps), "isError": error is not None}
        if error is not None:
            complete["error"] = error
        self._add("rlm_complete", 0.6, complete)

    def rewrite(self, assistant_at: int, text: str, reason: str, gap: float | None = 0.1) -> int:
        return self._add("assistant_rewrite", gap, {"assistantAt": assistant_at, "text": text, "reason": reason})

    def note(self, text: str, gap: float | None = None) -> int:
        return self._add("note", gap, {"text": text})

    def _snapshot(self) -> str:
        # Real snapshots are an encoded VM state, often large; a few KB of base64 keeps lazy loading honest.
        raw = bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(600, 3000)))
        return base64.b64encode(raw).decode("ascii")


PYTHON_PREAMBLE = (
    "# Tools available as Python functions. Call them like normal functions; results are strings.\n"
    "def read_file(path: str) -> str: ...\n"
    "def write_file(path: str, content: str) -> str: ...\n"
    "def web_search(query: str, count: int = 5) -> str: ...\n"
    "def exec(command: str, cwd: str | None = None) -> str: ...\n"
    "def say(text: str) -> None: ...\n"
)


def file_ref(file_id: str, name: str, mime: str, size: int, user_id: str, root: str) -> dict:
    """A ``FileReference`` pointing at the user's downloads folder (``<id>__<name>``)."""
    return {"id": file_id, "name": name, "mimeType": mime, "size": size,
            "path": f"{root}/users/{user_id}/home/downloads/{file_id}__{name}"}
