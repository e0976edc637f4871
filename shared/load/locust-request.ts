/**
 * The Python a generated locustfile runs, second half: one request sent and its stream read as the app reads it
 * (the content events, the terminal event, the usage), reported to Locust as E2E, TTFT, ITL and TPOT with the
 * definitions of docs/load.md, and the user that sends it (closed loop, or an arrival clock for open loop).
 */
export const LOCUST_REQUEST = String.raw`# ---- one request, read as the app reads it -----------------------------------------------------------


def sse_events(response):
    """The stream's events as (event, data), split as the SSE spec says, read as the bytes arrive."""
    buf = b""
    name, data = None, []
    for chunk in response.iter_content(chunk_size=None):
        buf += chunk
        while True:
            cut = min([i for i in (buf.find(b"\n"), buf.find(b"\r")) if i >= 0], default=-1)
            if cut < 0:
                break
            line = buf[:cut].decode("utf-8", "replace")
            skip = 2 if buf[cut : cut + 2] == b"\r\n" else 1
            buf = buf[cut + skip :]
            if line == "":
                if data:
                    yield name, "\n".join(data)
                name, data = None, []
            elif line.startswith(":"):
                continue
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    name = value
                elif field == "data":
                    data.append(value)
    if data:
        yield name, "\n".join(data)


def text(v):
    return isinstance(v, str) and v != ""


def error_text(obj, raw):
    err = obj.get("error") if isinstance(obj, dict) else None
    if isinstance(err, dict):
        return err.get("message") or err.get("type") or raw
    if isinstance(err, str):
        return err
    return raw


class Reading:
    """What one stream's events say: content (for TTFT and ITL), output tokens, the end, a failure."""

    def __init__(self):
        self.output_tokens = None
        self.finished = False
        self.ended = False
        self.error = None

    def step(self, event, data):
        """Whether this event carried content; sets ended/error at a terminal event."""
        if data.strip() == "[DONE]":
            if CONFIG["protocol"] == "chat":
                self.ended = True
            return False
        try:
            obj = json.loads(data)
        except ValueError:
            if event == "error":
                self.error = data
                self.ended = True
            return False
        if not isinstance(obj, dict):
            return False
        if event == "error" or obj.get("type") == "error" or (obj.get("type") is None and obj.get("error")):
            self.error = error_text(obj, data)
            self.ended = True
            return False
        return getattr(self, CONFIG["protocol"])(obj)

    def messages(self, obj):
        kind = obj.get("type")
        if kind == "content_block_delta":
            d = obj.get("delta") or {}
            return text(d.get("text")) or text(d.get("thinking")) or text(d.get("partial_json"))
        if kind == "content_block_start":
            b = obj.get("content_block") or {}
            return b.get("type") in ("text", "thinking") and text(b.get("text") or b.get("thinking"))
        if kind in ("message_start", "message_delta"):
            usage = (obj.get("message") or {}).get("usage") if kind == "message_start" else obj.get("usage")
            if isinstance(usage, dict) and isinstance(usage.get("output_tokens"), int):
                self.output_tokens = usage["output_tokens"]
            if kind == "message_delta" and isinstance((obj.get("delta") or {}).get("stop_reason"), str):
                self.finished = True
        if kind == "message_stop":
            self.finished = self.ended = True
        return False

    def chat(self, obj):
        usage = obj.get("usage")
        if isinstance(usage, dict):
            out = usage.get("completion_tokens", usage.get("output_tokens"))
            if isinstance(out, int):
                self.output_tokens = out
        content = False
        for choice in obj.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            d = choice.get("delta") or {}
            calls = d.get("tool_calls") or []
            args = [(c.get("function") or {}).get("arguments") for c in calls if isinstance(c, dict)]
            fn = (d.get("function_call") or {}).get("arguments")
            parts = [d.get("reasoning_content", d.get("reasoning")), d.get("content"), d.get("refusal"), fn] + args
            content = content or any(text(p) for p in parts)
            if text(choice.get("finish_reason")):
                self.finished = True
        return content

    def responses(self, obj):
        kind = obj.get("type")
        if kind in (
            "response.output_text.delta",
            "response.refusal.delta",
            "response.reasoning_summary_text.delta",
            "response.reasoning_text.delta",
            "response.function_call_arguments.delta",
        ):
            return text(obj.get("delta"))
        if kind in ("response.completed", "response.incomplete"):
            usage = (obj.get("response") or {}).get("usage")
            if isinstance(usage, dict) and isinstance(usage.get("output_tokens"), int):
                self.output_tokens = usage["output_tokens"]
            self.finished = self.ended = True
        elif kind == "response.failed":
            self.error = error_text(obj.get("response") or {}, "response.failed")
            self.ended = True
        return False


def report(environment, name, ms, length=0, failure=None):
    environment.events.request.fire(
        request_type=LLM,
        name=name,
        response_time=ms,
        response_length=length,
        exception=failure,
        context={},
    )


def send(user):
    """One request, timed from the moment it is sent; reported as E2E (and TTFT, ITL, TPOT when complete)."""
    env = user.environment
    sent = time.perf_counter()
    ms = lambda: (time.perf_counter() - sent) * 1000.0
    try:
        with user.session.post(
            user.url, data=BODY, headers=user.headers, stream=True, timeout=(30, CONFIG["idleTimeoutS"])
        ) as response:
            if response.status_code >= 300:
                raise Failure("HTTP %d: %s" % (response.status_code, excerpt(error_text(safe_json(response), ""))))
            if "text/event-stream" not in response.headers.get("content-type", ""):
                return whole_body(env, response, ms)
            reading, times = Reading(), []
            for event, data in sse_events(response):
                if reading.step(event, data):
                    times.append(ms())
                if reading.ended:
                    break
            e2e = ms()
    except Failure as failure:
        return report(env, FAILED, ms(), 0, failure)
    except requests.Timeout as err:
        return report(env, FAILED, ms(), 0, Failure("timeout: %s" % excerpt(err)))
    except Exception as err:  # a reset connection, a refused one, a broken body
        return report(env, FAILED, ms(), 0, Failure("network: %s" % excerpt(err)))
    if reading.error is not None:
        return report(env, FAILED, e2e, 0, Failure("error event: %s" % excerpt(reading.error)))
    if not reading.finished or (CONFIG["protocol"] != "chat" and not reading.ended):
        return report(env, FAILED, e2e, 0, Failure("truncated: the stream ended before its terminal event"))
    tokens = reading.output_tokens
    report(env, "E2E", e2e, tokens or 0)
    if times:
        report(env, "TTFT", times[0])
        for a, b in zip(times, times[1:]):
            report(env, "ITL", b - a)
        if tokens is not None and tokens >= 2:
            report(env, "TPOT", (e2e - times[0]) / (tokens - 1))


def safe_json(response):
    try:
        return response.json()
    except ValueError:
        return {"error": response.text[:500]}


def whole_body(env, response, ms):
    """A request sent without stream: only E2E is measured, as in the app."""
    body = safe_json(response)
    e2e = ms()
    if isinstance(body, dict) and body.get("error"):
        return report(env, FAILED, e2e, 0, Failure("error event: %s" % excerpt(error_text(body, ""))))
    usage = body.get("usage") if isinstance(body, dict) else None
    out = None
    if isinstance(usage, dict):
        out = usage.get("output_tokens", usage.get("completion_tokens"))
    report(env, "E2E", e2e, out if isinstance(out, int) else 0)


BODY = json.dumps(CONFIG["body"]).encode("utf-8")


class GatewayUser(User):
    """Closed loop: send, wait for the whole answer, send again. Open loop: keep an arrival clock instead."""

    host = CONFIG["baseUrl"]
    wait_time = constant(0)

    def on_start(self):
        self.url = self.host.rstrip("/") + CONFIG["path"]
        self.session = requests.Session()
        self.headers = dict(CONFIG["headers"])
        for name, prefix, env in CONFIG["envHeaders"]:
            value = os.environ.get(env, "")
            if value:
                self.headers[name] = prefix + value
        self.next_arrival = None

    def on_stop(self):
        self.session.close()

    @task
    def step(self):
        if SHAPE["kind"] == "fixed":
            delay = ticket(self.environment)
            if delay is None:
                raise StopUser()
            if delay > 0:
                gevent.sleep(delay)
            return send(self)
        target = target_at(time.monotonic() - RUN_START[0])
        if target is None:
            return gevent.sleep(0.2)
        _stage, _label, concurrency, rate = target
        if concurrency is not None:
            self.next_arrival = None
            return send(self)
        self.arrive(rate)

    def arrive(self, rate):
        """One arrival of the open loop: wait for this user's next moment, start a request, do not wait for it."""
        share = rate / arrival_users(rate)
        now = time.monotonic()
        if self.next_arrival is None:
            # A random phase, so the users' clocks do not tick together.
            self.next_arrival = now + random.uniform(0, 1 / share)
        gevent.sleep(max(0.0, self.next_arrival - now))
        gevent.spawn(send, self)
        gap = random.expovariate(share) if SHAPE.get("arrival") == "poisson" else 1 / share
        self.next_arrival += gap
`;
