"""A minimal Streamlit browser stand-in: one session over the websocket protocol.

It speaks what the frontend speaks: ``BackMsg.rerun_script`` carrying a
``ClientState`` (query string, page, widget states, fragment id) and reads
``ForwardMsg`` until ``script_finished``. It remembers every widget the server
sent (id, kind, range or options, fragment, whether a folded panel hides it; a
URL-bound tab set with its tabs) so it can move a random control it can see or open a
random tab the way a user would, and counts an ``exception`` element as an error.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any, Self

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Delta_pb2 import Delta
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.typing import Subprotocol

_DONE = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR,
}
_COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR
_FRAGMENT_DONE = ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
#: Widgets the client knows how to move; the app-wide presenter toggle is left alone.
_MOVABLE = {"slider", "selectbox", "checkbox", "radio", "number_input"}
_SKIP_KEYS = {"present"}
#: Text widgets, remembered (:attr:`Session.texts`) but never moved.
_TEXT = {"text_area", "text_input"}


def _widget_key(widget_id: str) -> str:
    """The user key in a Streamlit widget id (``$$ID-<hash>-<key>``), or the id itself."""
    head, sep, key = widget_id.rpartition("-")
    return key if sep and head.startswith("$$ID-") and key != "None" else widget_id


@dataclass
class Widget:
    id: str
    kind: str
    proto: Any  # the widget's protobuf message (slider, selectbox, ...)
    fragment_id: str = ""
    labels: list[str] = field(default_factory=list)  # a tab set's tabs, in order
    folded: bool = False  # inside an expander drawn folded (a closed section's settings)


@dataclass
class RunResult:
    seconds: float
    exceptions: list[str] = field(default_factory=list)
    timed_out: bool = False
    compile_error: bool = False
    wrong_page: bool = False
    moved: str = ""  # the moved control's link key (a move's run), "" for none
    fragment: bool = False  # the run reran a fragment only (a move inside one)
    elements: int = 0  # elements and blocks the server sent
    largest: int = 0  # bytes of the largest message the server sent
    alerts: list[str] = field(default_factory=list)  # warnings, errors, infos: their text
    #: (delta path, serialized ``Delta``) of each, in order, when the session keeps them
    deltas: list[tuple[tuple[int, ...], bytes]] = field(default_factory=list)


class Session:
    """One websocket session against ``base`` (http://127.0.0.1:port)."""

    def __init__(
        self,
        base: str,
        rng: random.Random,
        cookie: str | None = None,
        headers: dict[str, str] | None = None,
    ):
        #: Whether a run keeps its deltas (RunResult.deltas): extra work for this client,
        #: so set only around the runs to record, never around timed ones
        self.keep_deltas = False
        self.url = base.replace("http://", "ws://", 1).rstrip("/") + "/_stcore/stream"
        self.rng = rng
        self.cookie = cookie
        self.headers = dict(headers or {})  # more handshake headers (a proxy's X-Real-IP)
        self.ws: Any = None  # websockets' ClientConnection once entered
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash
        self.page_hash = ""
        self.widgets: dict[str, Widget] = {}
        #: text inputs and areas the server drew, by key (their ids), for the hostile
        #: clients of ``bench/abuse.py``; never moved by :meth:`move`
        self.texts: dict[str, str] = {}
        self.values: dict[str, tuple[str, object]] = {}  # widget id -> (value field, value)
        self.session_id = ""  # the server's id of this session (its first message)
        #: file uploaders the server drew, by key (their ids), for :meth:`upload`
        self.uploaders: dict[str, str] = {}
        self._tabs: Widget | None = None  # the tab set whose tabs are being read
        self._folded: set[tuple[int, ...]] = set()  # delta paths of expanders drawn folded

    async def __aenter__(self) -> Self:
        headers = dict(self.headers)
        if self.cookie:
            headers["Cookie"] = f"stroute={self.cookie}"
        self.ws = await websockets.connect(
            self.url,
            subprotocols=[Subprotocol("streamlit")],
            max_size=None,
            open_timeout=60,
            ping_interval=None,
            additional_headers=headers or None,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def _rerun(self, back: BackMsg, timeout: float) -> RunResult:
        if not back.rerun_script.fragment_id:  # the page runs: everything is drawn again
            self.widgets, self._folded = {}, set()
        start = time.perf_counter()
        await self.ws.send(back.SerializeToString())
        result = RunResult(0.0)
        deadline = start + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                result.timed_out = True
                break
            try:
                raw = await asyncio.wait_for(self.ws.recv(), remaining)
            except TimeoutError:
                result.timed_out = True
                break
            result.largest = max(result.largest, len(raw))
            msg = ForwardMsg.FromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "delta":
                result.elements += 1
                path = tuple(msg.metadata.delta_path)
                if self.keep_deltas:
                    result.deltas.append((path, msg.delta.SerializeToString()))
                self._read_delta(msg.delta, result, path)
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash
                for page in msg.navigation.app_pages:
                    self.pages[page.url_pathname] = page.page_script_hash
            elif kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
                self.session_id = msg.new_session.initialize.session_id or self.session_id
            elif kind == "script_finished" and msg.script_finished in _DONE:
                result.compile_error = msg.script_finished == _COMPILE_ERROR
                result.fragment = msg.script_finished == _FRAGMENT_DONE
                break
        result.seconds = time.perf_counter() - start
        return result

    def _read_delta(self, delta: Delta, result: RunResult, path: tuple[int, ...]) -> None:
        if delta.WhichOneof("type") == "add_block":
            self._read_block(delta, path)
            return
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            result.exceptions.append(f"{element.exception.type}: {element.exception.message}")
        elif kind == "alert":
            result.alerts.append(element.alert.body)
        elif kind == "file_uploader":
            self.uploaders[_widget_key(element.file_uploader.id)] = element.file_uploader.id
        elif kind in _TEXT:
            self.texts[_widget_key(getattr(element, kind).id)] = getattr(element, kind).id
        elif kind in _MOVABLE:
            proto = getattr(element, kind)
            if proto.query_param_key in _SKIP_KEYS or proto.disabled:
                return
            folded = any(path[:end] in self._folded for end in range(1, len(path)))
            self.widgets[proto.id] = Widget(proto.id, kind, proto, delta.fragment_id, folded=folded)

    def _read_block(self, delta: Delta, path: tuple[int, ...]) -> None:
        """A stateful tab set (its tabs follow it as blocks) is a control like the others;
        an expander drawn folded hides its widgets from a reader (:attr:`Widget.folded`)."""
        block = delta.add_block
        kind = block.WhichOneof("type")
        if kind == "expandable" and not block.expandable.expanded:
            self._folded.add(path)
        if kind == "tab_container" and block.tab_container.id:
            tabs = Widget(block.tab_container.id, "tabs", block.tab_container, delta.fragment_id)
            self.widgets[tabs.id] = self._tabs = tabs
        elif kind == "tab" and self._tabs is not None:
            self._tabs.labels.append(block.tab.label)
        else:
            self._tabs = None

    async def open(self, page: str = "", query: str = "", timeout: float = 60) -> RunResult:
        """First run of the session, as a browser opening ``/page?query``."""
        back = BackMsg()
        back.rerun_script.query_string = query
        back.rerun_script.page_name = page
        return self._check_page(await self._rerun(back, timeout), page)

    def _check_page(self, result: RunResult, page: str) -> RunResult:
        """Flag a run that did not land on ``page`` (the router fell back to Home)."""
        expected = self.pages.get(page)
        result.wrong_page = expected is not None and self.page_hash != expected
        return result

    async def switch(self, page: str, timeout: float = 60) -> RunResult:
        """Navigate to another page (its url path), as the sidebar does."""
        back = BackMsg()
        back.rerun_script.page_script_hash = self.pages.get(page, "")
        back.rerun_script.page_name = page
        self.values = {}
        return self._check_page(await self._rerun(back, timeout), page)

    async def move(self, timeout: float = 60) -> RunResult | None:
        """Move one random control to a random value; None when the page has none."""
        if not self.widgets:
            return None
        # what a reader sees: a folded panel's controls (a closed section's settings) only
        # when nothing else is left
        movable = [w for w in self.widgets.values() if w.kind != "tabs" or w.labels]
        widget = self.rng.choice([w for w in movable if not w.folded] or movable)
        return await self._send(widget, self._random_value(widget), timeout)

    def slider(self, key: str) -> Widget | None:
        """The slider bound to the link key ``key`` on the page, if there is one."""
        for widget in self.widgets.values():
            if widget.kind == "slider" and widget.proto.query_param_key == key:
                return widget
        return None

    async def slide(self, key: str, value: float, timeout: float = 60) -> RunResult:
        """Move the slider bound to ``key`` to ``value`` (a ``KeyError`` if the page has none)."""
        widget = self.slider(key)
        if widget is None:
            raise KeyError(f"no slider {key!r} on the page")
        return await self._send(widget, ("double_array_value", [value]), timeout)

    async def send_states(
        self, states: dict[str, tuple[str, object]], timeout: float = 60
    ) -> RunResult:
        """Rerun the page with exactly these widget ``states`` (id -> (value field,
        value)), whatever the server drew: what a client that is not a browser can send
        (a text longer than its box allows, an id the page never drew)."""
        back = BackMsg()
        back.rerun_script.page_script_hash = self.page_hash
        for widget_id, (field_name, entry_value) in states.items():
            entry = back.rerun_script.widget_states.widgets.add()
            entry.id = widget_id
            setattr(entry, field_name, entry_value)
        return await self._rerun(back, timeout)

    async def upload(self, key: str, name: str, data: bytes, timeout: float = 60) -> RunResult:
        """Upload ``data`` as the file ``name`` to the uploader bound to ``key`` and rerun,
        as the browser does: ask for an upload URL over the websocket, PUT the file over
        HTTP (with the XSRF cookie and header), then rerun with the uploader's state."""
        import urllib.request
        import uuid

        from streamlit.proto.Common_pb2 import FileURLsResponse

        request_id = uuid.uuid4().hex
        back = BackMsg()
        back.file_urls_request.request_id = request_id
        back.file_urls_request.file_names.append(name)
        back.file_urls_request.session_id = self.session_id
        await self.ws.send(back.SerializeToString())
        urls: FileURLsResponse | None = None
        while urls is None:
            msg = ForwardMsg.FromString(await asyncio.wait_for(self.ws.recv(), timeout))
            kind = msg.WhichOneof("type")
            if kind == "file_urls_response" and msg.file_urls_response.response_id == request_id:
                urls = msg.file_urls_response
        if urls.error_msg:
            raise RuntimeError(f"no upload URL: {urls.error_msg}")
        file_urls = urls.file_urls[0]
        http = self.url.replace("ws://", "http://", 1).removesuffix("/_stcore/stream")
        opener = urllib.request.build_opener()  # the XSRF cookie comes with the health check
        xsrf = ""
        with opener.open(http + "/_stcore/health", timeout=timeout) as answer:
            for cookie in answer.headers.get_all("Set-Cookie") or []:
                if cookie.startswith("_streamlit_xsrf="):
                    xsrf = cookie.split("=", 1)[1].split(";", 1)[0]
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        upload_url = file_urls.upload_url
        if upload_url.startswith("/"):
            upload_url = http + upload_url
        put = urllib.request.Request(
            upload_url,
            data=body,
            method="PUT",
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "X-Xsrftoken": xsrf,
                "Cookie": f"_streamlit_xsrf={xsrf}",
            },
        )
        await asyncio.to_thread(lambda: opener.open(put, timeout=timeout).close())
        state = BackMsg()
        state.rerun_script.page_script_hash = self.page_hash
        entry = state.rerun_script.widget_states.widgets.add()
        entry.id = self.uploaders[key]
        info = entry.file_uploader_state_value.uploaded_file_info.add()
        info.name, info.size, info.file_id = name, len(data), file_urls.file_id
        info.file_urls.CopyFrom(file_urls)
        return await self._rerun(state, timeout)

    async def _send(self, widget: Widget, value: tuple[str, object], timeout: float) -> RunResult:
        """Give ``widget`` its new ``value`` and run as the browser would: only the
        widget's fragment when it stands in one, else the page."""
        self.values[widget.id] = value
        back = BackMsg()
        state = back.rerun_script
        state.page_script_hash = self.page_hash
        state.fragment_id = widget.fragment_id
        for widget_id, (field_name, entry_value) in self.values.items():
            if widget_id not in self.widgets:
                continue
            entry = state.widget_states.widgets.add()
            entry.id = widget_id
            if field_name == "double_array_value":
                entry.double_array_value.data[:] = entry_value
            else:
                setattr(entry, field_name, entry_value)
        result = await self._rerun(back, timeout)
        result.moved = str(getattr(widget.proto, "query_param_key", "") or widget.kind)
        return result

    def _random_value(self, widget: Widget) -> tuple[str, object]:
        proto, rng = widget.proto, self.rng
        if widget.kind == "slider":
            steps = max(1, round((proto.max - proto.min) / (proto.step or 1)))
            picks = sorted(
                proto.min + (proto.step or 1) * rng.randint(0, steps) for _ in proto.default
            )
            return "double_array_value", [round(min(v, proto.max), 10) for v in picks]
        if widget.kind in ("selectbox", "radio"):
            return "string_value", rng.choice(list(proto.options))
        if widget.kind == "tabs":
            return "string_value", rng.choice(widget.labels)
        if widget.kind == "checkbox":
            current = self.values.get(widget.id, ("", proto.default))[1]
            return "bool_value", not current
        # number_input
        low = proto.min if proto.has_min else 0.0
        high = proto.max if proto.has_max else low + 100.0
        value = rng.uniform(low, high)
        if proto.data_type == proto.INT:
            return "int_value", int(value)
        return "double_value", value
