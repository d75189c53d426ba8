"""The ``openai`` writer: an edition written by a model behind an OpenAI-compatible API.

The model gets the ranked stories (see :mod:`digest.summarize.llm.prompt`) and answers JSON of
a strict schema. Its text is untrusted: HTML, links, URLs and bidi controls are removed,
its ``[id]`` citations are renumbered into references built from the records, and the
edition must pass :func:`~digest.summarize.checks.problems`. One retry tells the model what
was wrong; after that, or when the server cannot be used, the extractive writer writes the
edition and ``writer_note`` says why. Accepted answers are cached by request.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import msgspec
import msgspec.structs
from msgspec import Struct

from digest.errors import UsageError, WireError
from digest.models import ActionItem, Digest, FaqEntry, Reference
from digest.summarize.base import Brief, Item, WriterContext
from digest.summarize.checks import CITE, first_citations, model_problems
from digest.summarize.clean import in_short
from digest.summarize.extractive import ExtractiveWriter
from digest.summarize.llm.cache import AnswerCache, cache_key
from digest.summarize.llm.prompt import (
    PROMPT_VERSION,
    Answer,
    AnswerError,
    BudgetError,
    Message,
    Prompt,
    build_prompt,
    estimate_messages,
    feedback,
    parse_answer,
)
from digest.summarize.llm.screen import screen, unlist
from digest.summarize.llm.verify import SCHEMA as VERDICT_SCHEMA
from digest.summarize.llm.verify import read_verdict, verification, without
from digest.summarize.phrasing import count, headline_case, plain
from digest.text import neutralise, one_line, shorten

if TYPE_CHECKING:
    # The SDK takes a quarter of a second to import: only editions that call it pay for it.
    import openai
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.shared_params import ResponseFormatJSONObject, ResponseFormatJSONSchema

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: The only words a fallback puts on a public page: never model text or server messages.
REJECTED = "the model's answer did not pass the checks"
UNREACHABLE = "the server could not be reached"
REFUSED = "the server refused the request"
UNREADABLE = "the server's answer could not be read"
DECLINED = "the model declined"
TOO_LARGE = "the day did not fit the model's token budget"
REASONS = (REJECTED, UNREACHABLE, REFUSED, UNREADABLE, DECLINED, TOO_LARGE)
#: The longest verification answer asked for: a list of sentence numbers.
VERDICT_TOKENS = 300
#: An answer longer than this many characters per answer token is not read at all.
CHARS_PER_ANSWER_TOKEN = 6
# What a server says when it does not know a parameter: llama.cpp's server and older
# OpenAI-compatible ones answer 400, 422 or 500 naming it.
_FORMAT_REFUSED = re.compile(r"response_format|json_schema", re.I)
_TOKENS_REFUSED = re.compile(r"max_completion_tokens", re.I)
_REFUSAL_STATUSES = (400, 422, 500)


class _Reply(Struct, frozen=True):
    """What the writer keeps of a chat completion (no SDK object leaves this module)."""

    text: str
    finish_reason: str
    refusal: str
    prompt_tokens: int
    answer_tokens: int
    #: The model that answered, as the server names it.
    model: str = ""


class Probe(Struct, frozen=True):
    """What ``digest doctor`` learnt of the server: where, which model, which request form."""

    base_url: str
    model: str
    #: ``json_schema`` or ``json_object``: the structured-output form the server accepts.
    response_format: str
    #: ``max_completion_tokens`` or ``max_tokens``.
    tokens_field: str
    #: Whether the tiny answer was JSON, as asked.
    answered_json: bool


class _Usage(Struct):
    requests: int = 0
    prompt_tokens: int = 0
    answer_tokens: int = 0

    def add(self, reply: _Reply) -> None:
        self.requests += 1
        self.prompt_tokens += reply.prompt_tokens
        self.answer_tokens += reply.answer_tokens


class _Unreadable(Exception):
    """The server answered, but not with a chat completion (an HTML page, a bare value)."""


class _Declined(Exception):
    """The model refused to write the edition (a final answer: not asked again)."""


class OpenAIWriter:
    """Writes the edition with a chat model; falls back to the extractive writer."""

    name = "openai"

    def __init__(self, context: WriterContext) -> None:
        """Read the key and server from ``context``; raise UsageError when there is no key."""
        self._context = context
        self._settings = context.settings.openai
        self._log = context.log
        self._api_key = _api_key(context.env.get("OPENAI_API_KEY", ""))
        self._base_url = _base_url(self._settings.base_url or context.env.get("OPENAI_BASE_URL"))
        self._cache = AnswerCache(context.settings.data_dir / "cache" / "openai")
        # What the server accepts, learnt on the first request and kept for the run.
        mode = self._settings.response_format
        self._format = "json_object" if mode == "json_object" else "json_schema"
        self._may_switch_format = mode == "auto"
        self._tokens_field = "max_completion_tokens"
        self._settled = False

    def write(self, brief: Brief) -> Digest:
        """Return the model's edition of ``brief`` if it passes the checks, else the extractive."""
        if not brief.items:
            raise ValueError("a brief with no changes has no edition")
        try:
            prompt = build_prompt(brief, self._settings.token_budget)
        except BudgetError as error:
            return self._fallback(brief, str(error), TOO_LARGE)
        key = cache_key(
            model=self._settings.model,
            temperature=self._settings.temperature,
            version=PROMPT_VERSION + ("+verify" if self._settings.verify else ""),
            messages=prompt.messages,
            schema=prompt.schema,
        )
        cached = self._cached(key, brief, prompt)
        if cached is not None:
            return cached
        import openai

        try:
            return self._ask(brief, prompt, key)
        except (openai.OpenAIError, _Unreadable, _Declined) as error:
            detail, reason = self._describe(error)
            return self._fallback(brief, detail, reason)

    def probe(self) -> Probe:
        """Ask the server one tiny question the way editions ask, and say what it accepts.

        Raises WireError with the log line's detail (server, status, fix) when it cannot
        be used at all.
        """
        import openai

        schema = {
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "required": ["ok"],
            "additionalProperties": False,
        }
        system = Message(role="system", content='Answer with the JSON object {"ok": true}.')
        messages = (system, Message(role="user", content="Are you there?"))
        prompt = Prompt(messages, schema, inputs=(), stories=0, tokens=30, answer_tokens=64)
        try:
            with self._client() as client:
                reply = self._complete(client, messages, prompt)
        except (openai.OpenAIError, _Unreadable) as error:
            raise WireError(self._describe(error)[0]) from None
        return Probe(
            base_url=_display_url(self._base_url),
            model=reply.model or self._settings.model,
            response_format=self._format,
            tokens_field=self._tokens_field,
            answered_json=_is_json(reply.text),
        )

    def _cached(self, key: str, brief: Brief, prompt: Prompt) -> Digest | None:
        """The edition from the answer cached under ``key``, if there is one that still passes."""
        text = self._cache.load(key)
        if text is None:
            return None
        try:
            # Restored from disk, so untrusted: screened again, and used only when it passes
            # whole, as an answer is saved once screened.
            faq = {e.question: e.answer for e in ExtractiveWriter().write(brief).faq}
            screened = screen(parse_answer(text), brief, prompt.inputs, faq)
            digest, found = compose(screened.answer, brief, prompt.inputs)
            found = [*screened.dropped, *screened.problems, *found]
        except AnswerError as error:
            found = [str(error)]
        if found:
            self._log.debug("cached answer %s ignored: %s", key[:12], found[0])
            return None
        self._log.info("%s %s: openai answer reused from the cache", brief.project_slug, brief.date)
        return digest

    def _ask(self, brief: Brief, prompt: Prompt, key: str) -> Digest:
        """Ask for the edition, retry once with the problems; cache and return an accepted one."""
        messages = list(prompt.messages)
        usage = _Usage()
        started = time.monotonic()
        found: list[str] = []
        try:
            with self._client() as client:
                faq = {e.question: e.answer for e in ExtractiveWriter().write(brief).faq}
                for attempt in (1, 2):
                    reply = self._complete(client, messages, prompt)
                    usage.add(reply)
                    if reply.refusal:
                        raise _Declined(reply.refusal)
                    review = _review(reply, brief, prompt, faq)
                    found = list(review.problems)
                    if review.dropped:
                        self._log.info(
                            "%s %s: openai answer %d: %s",
                            brief.project_slug,
                            brief.date,
                            attempt,
                            "; ".join(review.dropped[:5]),
                        )
                    if review.answer is not None and review.digest is not None and not found:
                        kept, digest = review.answer, review.digest
                        if self._settings.verify:
                            kept, digest, found = self._verified(client, brief, prompt, kept, faq)
                            if found:
                                break  # what is left after the check makes no edition
                        self._cache.save(key, msgspec.to_builtins(kept))
                        return digest
                    self._log.warning(
                        "%s %s: openai answer %d rejected: %s",
                        brief.project_slug,
                        brief.date,
                        attempt,
                        "; ".join(found[:5]),
                    )
                    # One repair request: every problem, those left out included.
                    told = [*found, *review.dropped]
                    messages += [
                        Message(role="assistant", content=reply.text),
                        Message(role="user", content=feedback(told, len(prompt.inputs))),
                    ]
        finally:
            if usage.requests:
                self._log.info(
                    "%s %s: openai %s used %d prompt + %d answer tokens in %s, %.1f s "
                    "(prompt estimated at %d; budget %d per request)",
                    brief.project_slug,
                    brief.date,
                    self._settings.model,
                    usage.prompt_tokens,
                    usage.answer_tokens,
                    count(usage.requests, "request"),
                    time.monotonic() - started,
                    prompt.tokens,
                    self._settings.token_budget,
                )
        return self._fallback(brief, "; ".join(found[:5]), REJECTED)

    def _verified(
        self,
        client: openai.OpenAI,
        brief: Brief,
        prompt: Prompt,
        answer: Answer,
        faq: dict[str, str],
    ) -> tuple[Answer, Digest, list[str]]:
        """``answer`` without the body sentences a second request finds unsupported by what
        they cite; its edition; and what is wrong with what is left (empty: publish it)."""
        messages = verification(answer, prompt.inputs)
        ask = Prompt(
            messages,
            VERDICT_SCHEMA,
            inputs=(),
            stories=0,
            tokens=estimate_messages(messages),
            answer_tokens=VERDICT_TOKENS,
        )
        reply = self._complete(client, messages, ask)
        try:
            verdict = read_verdict(reply.text)
        except ValueError as error:
            raise _Unreadable(str(error)) from None
        if verdict.unsupported:
            self._log.info(
                "%s %s: openai verification left out body sentences %s",
                brief.project_slug,
                brief.date,
                ", ".join(map(str, verdict.unsupported)),
            )
        screened = screen(without(answer, verdict.unsupported), brief, prompt.inputs, faq)
        digest, found = compose(screened.answer, brief, prompt.inputs)
        return screened.answer, digest, [*screened.problems, *found]

    def _client(self) -> openai.OpenAI:
        import openai

        return openai.OpenAI(
            api_key=self._api_key,
            base_url=self._base_url,
            timeout=self._settings.timeout,
            max_retries=self._settings.max_retries,
        )

    def _complete(
        self, client: openai.OpenAI, messages: Sequence[Message], prompt: Prompt
    ) -> _Reply:
        """Send ``messages`` in the form the server accepts; learn that form on the way.

        A server that refuses ``json_schema`` or ``max_completion_tokens`` (400, 422 or 500
        naming it) is asked again at once without it, and that is remembered for the rest
        of the run: until a request has gone through, each attempt is made here, so such a
        refusal is never retried as it is. Otherwise 408, 409, 429, 5xx and connection
        errors are retried up to ``max_retries`` times (by the SDK, with its backoff), and
        other answers are final.
        """
        import openai

        retries = self._settings.max_retries
        spent = 0  # attempts of this request made while the server's form was unknown
        while True:
            if not self._settled:
                sdk = client.with_options(max_retries=0)
            else:
                sdk = client.with_options(max_retries=max(0, retries - spent))
            try:
                reply = self._request(sdk, messages, prompt)
            except openai.APIStatusError as error:
                if self._adapt(error):
                    continue
                if self._settled or not _retryable(error.status_code) or spent >= retries:
                    raise
                self._settled, spent = True, spent + 1
                time.sleep(_retry_after(error))
                continue
            except openai.APIConnectionError:
                if self._settled or spent >= retries:
                    raise
                self._settled, spent = True, spent + 1
                continue
            self._settled = True
            return reply

    def _adapt(self, error: openai.APIStatusError) -> bool:
        """Switch to what the server accepts when ``error`` refuses a parameter; True if so."""
        if error.status_code not in _REFUSAL_STATUSES:
            return False
        message = _error_text(error)
        if (
            self._may_switch_format
            and self._format == "json_schema"
            and _FORMAT_REFUSED.search(message)
        ):
            self._format = "json_object"
            self._log.info(
                "the openai server refuses json_schema response formats; using json_object "
                "with the schema in the system message for the rest of the run"
            )
            return True
        if self._tokens_field == "max_completion_tokens" and _TOKENS_REFUSED.search(message):
            self._tokens_field = "max_tokens"
            self._log.info("the openai server refuses max_completion_tokens; using max_tokens")
            return True
        return False

    def _request(
        self, client: openai.OpenAI, messages: Sequence[Message], prompt: Prompt
    ) -> _Reply:
        sent = [_sdk_message(m) for m in messages]
        response_format: ResponseFormatJSONSchema | ResponseFormatJSONObject
        if self._format == "json_schema":
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": "wire_edition", "strict": True, "schema": prompt.schema},
            }
        else:
            response_format = {"type": "json_object"}
            sent[0] = {"role": "system", "content": _with_schema(messages[0], prompt.schema)}
        # Either field, never both: servers that know only one refuse the other.
        limit: dict[str, Any] = {self._tokens_field: prompt.answer_tokens}
        try:
            completion = client.chat.completions.create(
                model=self._settings.model,
                messages=sent,
                temperature=self._settings.temperature,
                response_format=response_format,
                **limit,
            )
            # Not validated by the SDK: a proxy's HTML page or a stray JSON value gets here.
            if not completion.choices:
                raise _Unreadable("the answer has no choices")
            choice = completion.choices[0]
            usage = completion.usage
            content = choice.message.content
            return _Reply(
                text=content if isinstance(content, str) else "",
                finish_reason=choice.finish_reason or "",
                refusal=choice.message.refusal or "",
                prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
                answer_tokens=(usage.completion_tokens or 0) if usage else 0,
                model=completion.model if isinstance(completion.model, str) else "",
            )
        except (ValueError, AttributeError, IndexError, TypeError) as error:
            raise _Unreadable(f"not a chat completion ({type(error).__name__})") from error

    def _describe(self, error: Exception) -> tuple[str, str]:
        """(a log line naming the server and the fix, the public reason) for ``error``.

        Server messages and the model's words go to the log line only.
        """
        import openai

        where = f"the openai server at {_display_url(self._base_url)}"
        tries = count(self._settings.max_retries + 1, "attempt")
        if isinstance(error, _Declined):
            return f"the model declined: {shorten(one_line(str(error)), 200)}", DECLINED
        if isinstance(error, openai.APITimeoutError):
            return (
                f"{where} did not answer within openai.timeout ({self._settings.timeout:g} s) "
                f"in {tries}",
                UNREACHABLE,
            )
        if isinstance(error, openai.APIConnectionError):
            return (
                f"{where} cannot be reached ({tries}); check openai.base_url or OPENAI_BASE_URL",
                UNREACHABLE,
            )
        if isinstance(error, _Unreadable):
            return (
                f"{where} answered with something that is not a usable chat completion ({error}); "
                "check openai.base_url or OPENAI_BASE_URL (an API root, often ending in /v1)",
                UNREADABLE,
            )
        if isinstance(error, openai.APIStatusError):
            status = error.status_code
            hint = _STATUS_HINTS.get(status, f"HTTP {status}")
            message = shorten(one_line(_error_text(error)), 200)
            reason = UNREACHABLE if _retryable(status) else REFUSED
            return f"{where} answered {hint} after {tries} ({message})", reason
        return f"openai request failed: {type(error).__name__}", REFUSED

    def _fallback(self, brief: Brief, detail: str, reason: str) -> Digest:
        """The extractive edition of ``brief``; ``reason`` is public, ``detail`` only logged."""
        self._log.warning(
            "%s %s: %s; the extractive writer writes this edition",
            brief.project_slug,
            brief.date,
            detail,
        )
        digest = ExtractiveWriter(self._context).write(brief)
        return msgspec.structs.replace(digest, writer_note=reason)


_STATUS_HINTS = {
    400: "HTTP 400: it refuses an option; try openai.response_format: json_object",
    401: "HTTP 401: it refused the key; check OPENAI_API_KEY",
    403: "HTTP 403: the key has no access to openai.model",
    404: "HTTP 404: check openai.model and openai.base_url (OpenAI-style servers end in /v1)",
}


class _Review(Struct, frozen=True):
    """A reply read and screened: the answer kept, its edition, what was left out of it, and
    what leaving out could not mend (empty: accepted)."""

    answer: Answer | None
    digest: Digest | None
    dropped: tuple[str, ...]
    problems: tuple[str, ...]


def _review(reply: _Reply, brief: Brief, prompt: Prompt, faq: dict[str, str]) -> _Review:
    """Parse ``reply``, leave out what fails (``faq``: the extractive answers that replace a
    failing FAQ answer) and check the edition that remains."""
    limit = prompt.answer_tokens * CHARS_PER_ANSWER_TOKEN
    if len(reply.text) > limit:
        return _Review(
            None, None, (), (f"the answer has {len(reply.text)} characters; at most {limit}",)
        )
    if reply.finish_reason == "length":
        cut = f"the answer was cut off at {prompt.answer_tokens} tokens; be shorter"
        return _Review(None, None, (), (cut,))
    try:
        answer = parse_answer(reply.text)
    except AnswerError as error:
        return _Review(None, None, (), (str(error),))
    screened = screen(answer, brief, prompt.inputs, faq)
    digest, found = compose(screened.answer, brief, prompt.inputs)
    return _Review(screened.answer, digest, screened.dropped, (*screened.problems, *found))


def compose(answer: Answer, brief: Brief, inputs: Sequence[Item]) -> tuple[Digest, list[str]]:
    """Turn ``answer`` into the edition of ``brief`` and list what is wrong with it.

    Citations ``[id]`` of ``inputs`` become references numbered in order of first citation
    (body, then action items), built from the records; unknown ids are left for the checks
    to report. Model text is cleaned of HTML, links, URLs and invisible characters.
    """
    body = _markdown(answer.body)
    actions = [(_plain(a.text), a) for a in answer.action_items]
    cited = [body, *(text + "".join(f" [{n}]" for n in a.refs) for text, a in actions)]
    order = [n for n in first_citations(cited) if 1 <= n <= len(inputs)]
    number = {n: position for position, n in enumerate(order, start=1)}

    def renumber(text: str) -> str:
        return CITE.sub(lambda m: f"[{number.get(int(m[1]), int(m[1]))}]", text)

    found: list[str] = []
    faq = []
    for entry in answer.faq:
        text = _plain(entry.answer)
        for n in map(int, CITE.findall(text)):
            if 1 <= n <= len(inputs) and n not in number:
                found.append(
                    f"the FAQ answer to {_plain(entry.question)!r} cites [{n}], "
                    "which neither the body nor an action item cites"
                )
        faq.append(FaqEntry(question=_plain(entry.question), answer=renumber(text)))
    digest = Digest(
        project=brief.project,
        project_slug=brief.project_slug,
        date=brief.date,
        headline=headline_case(
            _CITE_SPACE.sub("", _plain(answer.headline)),
            {brief.shown(item.pull.repo) for item in brief.items},
            (item.pull.title for item in brief.items),
        ),
        dek=_CITE_SPACE.sub("", _plain(answer.dek)).strip(),
        body=renumber(body),
        action_items=tuple(
            ActionItem(
                text=renumber(text),
                repo=a.repo.strip(),
                urgency=a.urgency,
                refs=tuple(dict.fromkeys(number.get(n, n) for n in a.refs)),
            )
            for text, a in actions
        ),
        references=tuple(
            Reference(
                n=position,
                repo=inputs[n - 1].pull.repo,
                number=inputs[n - 1].pull.number,
                title=inputs[n - 1].pull.title,
                url=inputs[n - 1].pull.url,
                in_short=in_short(inputs[n - 1].pull.body, inputs[n - 1].pull.title),
            )
            for position, n in enumerate(order, start=1)
        ),
        faq=tuple(faq),
        writer="openai",
    )
    return digest, found + model_problems(digest, [item.pull for item in brief.items])


_CITE_SPACE = re.compile(r"\s*\[\d+\]")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_SCRIPT = re.compile(r"<(script|style)\b.*?(?:</\1\s*>|\Z)", re.S | re.I)
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_TAG_START = re.compile(r"(?<!\\)<(?=\s*/?\s*[A-Za-z!?])")
_MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\((?:[^()\s]|\([^)\n]*\))*\)")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:.*$", re.M)
_URL = re.compile(r"<?\b(?:https?|ftp)://\S*>?|\b(?:javascript|vbscript|data):\S+", re.I)
_SPACES = re.compile(r"[ \t]{2,}")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")


def _strip_markup(text: str) -> str:
    """``text`` without invisible characters, HTML, scripts, links (their text stays) or URLs."""
    text = neutralise(text)
    for pattern in (_COMMENT, _SCRIPT, _LINK_DEFINITION):
        text = pattern.sub("", text)
    text = _URL.sub("", _TAG.sub("", _MD_LINK.sub(r"\1", text)))
    return unlist(text)


def _markdown(text: str) -> str:
    """Untrusted Markdown ``text`` made safe: markup stripped, stray ``<`` escaped."""
    text = _TAG_START.sub(r"\\<", _strip_markup(text))
    paragraphs = re.split(r"\n\s*\n", _SPACES.sub(" ", text))
    return "\n\n".join(p.strip() for p in paragraphs if p.strip())


def _plain(text: str) -> str:
    """Untrusted ``text`` as one line of plain text (headline, dek, question, action item)."""
    return one_line(plain(_EMPHASIS.sub(r"\2", _strip_markup(text))))


def _retry_after(error: openai.APIStatusError) -> float:
    """Seconds the server asked to wait before a retry (``retry-after(-ms)``), at most 60."""
    headers = error.response.headers
    try:
        if "retry-after-ms" in headers:
            return min(float(headers["retry-after-ms"]) / 1000, 60.0)
        return min(float(headers.get("retry-after", "0.5")), 60.0)
    except ValueError:
        return 0.5


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _retryable(status: int) -> bool:
    """True for the answers the SDK retries: 408, 409, 429 and server errors."""
    return status in (408, 409, 429) or status >= 500


def _with_schema(system: Message, schema: dict[str, Any]) -> str:
    """The system message with the answer's JSON schema spelt out (for JSON mode)."""
    return (
        f"{system['content']}\n\nAnswer with one JSON object, nothing else, that matches this "
        f"JSON schema:\n{json.dumps(schema, sort_keys=True)}"
    )


def _error_text(error: openai.APIStatusError) -> str:
    """What the server said about ``error``: its message and body, as one string."""
    return f"{error.message} {json.dumps(error.body, default=str) if error.body else ''}"


def _sdk_message(message: Message) -> ChatCompletionMessageParam:
    if message["role"] == "system":
        return {"role": "system", "content": message["content"]}
    if message["role"] == "assistant":
        return {"role": "assistant", "content": message["content"]}
    return {"role": "user", "content": message["content"]}


def _api_key(value: str) -> str:
    """Return the API key ``value``; raise UsageError naming the fix when it is empty."""
    if not value.strip():
        raise UsageError(
            "the openai writer needs an API key in OPENAI_API_KEY (a local server that needs "
            "none accepts any value, e.g. OPENAI_API_KEY=local); or choose another writer "
            "with `writer: extractive` in the config or --writer extractive"
        )
    return value.strip()


def _base_url(configured: str | None) -> str:
    """The server root: ``configured`` or OpenAI's; raise UsageError when it is not http(s)."""
    url = (configured or DEFAULT_BASE_URL).strip()
    if not re.match(r"^https?://[^/\s]+", url):
        raise UsageError(
            f"openai.base_url / OPENAI_BASE_URL {_display_url(url)!r} is not an http(s) URL; "
            "an OpenAI-compatible server's root looks like http://localhost:8000/v1"
        )
    return url


def _display_url(url: str) -> str:
    """``url`` without user, password or query, which may hold secrets, for logs."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(unparsable URL)"
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme else "(not a URL)"
