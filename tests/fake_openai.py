"""A local OpenAI-compatible server for tests: scripted replies, counted and recorded requests.

``POST /v1/chat/completions`` answers each request with the next scripted :class:`Reply`
(an answer, an HTTP error with a short ``retry-after-ms``, a hang); the request bodies
and headers are kept so tests can look at what the writer sent. It listens on
127.0.0.1 on a free port and serves each request on its own thread::

    with FakeOpenAI() as server:
        server.enqueue(answer({...}), error(500))
        ... base_url=server.base_url ...
        assert server.count == 2
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted behaviour of the server."""

    status: int = 200
    #: The assistant message's content (status 200).
    content: str = ""
    finish_reason: str = "stop"
    refusal: str | None = None
    #: Extra response headers (``retry-after-ms`` keeps the SDK's retry waits short).
    headers: tuple[tuple[str, str], ...] = ()
    #: Seconds to wait before answering (released early when the server closes).
    hang: float = 0.0
    #: An HTML page to send instead of a completion (a proxy's login page).
    page: str | None = None
    #: Answer a completion with no choices at all.
    no_choices: bool = False


def answer(document: Any) -> Reply:
    """A 200 reply whose message content is ``document`` as JSON."""
    return Reply(content=json.dumps(document))


def text(content: str, finish_reason: str = "stop") -> Reply:
    """A 200 reply whose message content is ``content`` as given."""
    return Reply(content=content, finish_reason=finish_reason)


def error(status: int, retry_after_ms: int = 5) -> Reply:
    """An HTTP error reply asking the client to wait ``retry_after_ms`` before retrying."""
    return Reply(status=status, headers=(("retry-after-ms", str(retry_after_ms)),))


def page(html: str = "<html><body>Please sign in</body></html>") -> Reply:
    """A 200 reply that is an HTML page, as a captive proxy sends."""
    return Reply(page=html)


def no_choices() -> Reply:
    """A 200 completion whose ``choices`` list is empty."""
    return Reply(no_choices=True)


def hang(seconds: float = 5.0) -> Reply:
    """A reply that arrives only after ``seconds``: past any short client timeout."""
    return Reply(hang=seconds, content="{}")


class FakeOpenAI:
    """The server; use as a context manager, which starts and stops it.

    ``llama_like`` makes it validate requests as llama-cpp-python's server does: a
    ``json_schema`` response format is refused (400) and ``max_completion_tokens`` is an
    unknown field (422); such requests are counted but take no scripted reply.
    """

    def __init__(self, llama_like: bool = False) -> None:
        self.llama_like = llama_like
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._released = threading.Event()
        #: Every request body, parsed, in arrival order.
        self.requests: list[dict[str, Any]] = []
        #: Every request's headers (lower-case names), in arrival order.
        self.headers: list[dict[str, str]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._server.fake = self  # type: ignore[attr-defined]
        # A short poll interval: shutting the server down waits for one poll.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def count(self) -> int:
        """How many chat completion requests arrived."""
        with self._lock:
            return len(self.requests)

    def enqueue(self, *replies: Reply) -> None:
        """Add ``replies`` to the script, answered in order."""
        with self._lock:
            self._replies.extend(replies)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._released.set()
        self._server.shutdown()
        self._server.server_close()

    def _take(self, body: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self.llama_like and _refusal(body) is not None:
                return None
            return self._replies.popleft() if self._replies else None


def _refusal(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """What llama-cpp-python's server answers to ``body``, when it refuses it."""
    if (body.get("response_format") or {}).get("type") not in (None, "text", "json_object"):
        message = "response_format: Input should be 'text' or 'json_object'"
        return 400, {"error": {"message": message, "type": "invalid_request_error"}}
    if "max_completion_tokens" in body:
        field = ["body", "max_completion_tokens"]
        return 422, {"detail": [{"loc": field, "msg": "Extra inputs are not permitted"}]}
    return None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        fake: FakeOpenAI = self.server.fake  # type: ignore[attr-defined]
        length = int(self.headers.get("content-length", "0"))
        raw = self.rfile.read(length)
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        body = json.loads(raw)
        reply = fake._take(body, {k.lower(): v for k, v in self.headers.items()})
        refused = _refusal(body) if fake.llama_like else None
        if refused is not None:
            self._send(*refused)
            return
        if reply is None:
            self._send(
                500,
                {"error": {"message": "no scripted reply left", "type": "test_error"}},
                (("x-should-retry", "false"),),
            )
            return
        if reply.hang:
            fake._released.wait(reply.hang)
        if reply.status != 200:
            message = {"error": {"message": f"scripted {reply.status}", "type": "server_error"}}
            self._send(reply.status, message, reply.headers)
            return
        if reply.page is not None:
            self._send(200, reply.page)
            return
        if reply.no_choices:
            self._send(200, _completion(body, reply) | {"choices": []})
            return
        self._send(200, _completion(body, reply), reply.headers)

    def _send(
        self,
        status: int,
        document: dict[str, Any] | str,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        page = isinstance(document, str)
        data = (document if isinstance(document, str) else json.dumps(document)).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "text/html" if page else "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # The client gave up (a timeout test); nothing to answer.

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _completion(request: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """A chat.completion object answering ``request`` with ``reply``."""
    prompt_tokens = len(json.dumps(request.get("messages", []))) // 4
    answer_tokens = len(reply.content) // 4
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1772600000,
        "model": request.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None if reply.refusal else reply.content,
                    "refusal": reply.refusal,
                },
                "finish_reason": reply.finish_reason,
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": answer_tokens,
            "total_tokens": prompt_tokens + answer_tokens,
        },
    }
