"""The client without a network: its envelope parsing, retry rules, paging and the operations table it covers."""
from __future__ import annotations

import json
import re
import unittest
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set, Tuple
from urllib.parse import parse_qs, urlsplit

from rtm_server import OPERATIONS, HttpResponse, RtmClient, RtmError, parse_retry_after

Call = Tuple[str, str, Optional[Any]]


class FakeService:
    """A transport answering from `handler(method, path, query, body)`; records every call."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.calls: List[Call] = []
        self.headers: List[Dict[str, str]] = []

    def __call__(self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes], timeout: float) -> HttpResponse:
        parts = urlsplit(url)
        decoded = None if body is None else json.loads(body)
        self.calls.append((method, parts.path + (f"?{parts.query}" if parts.query else ""), decoded))
        self.headers.append(headers)
        return self.handler(method, parts.path, parse_qs(parts.query), decoded)


Handler = Callable[[str, str, Dict[str, List[str]], Any], HttpResponse]


def always(response: HttpResponse) -> Handler:
    return lambda method, path, query, body: response


def in_turn(responses: List[HttpResponse]) -> Handler:
    return lambda method, path, query, body: responses.pop(0)


def answer(status: int, body: Any = None, headers: Optional[Dict[str, str]] = None) -> HttpResponse:
    return HttpResponse(status, headers or {}, b"" if body is None else json.dumps(body).encode())


def client(service: FakeService, retries: int = 2) -> Tuple[RtmClient, List[float]]:
    sleeps: List[float] = []
    return RtmClient("http://control.test/", "sk_test", retries=retries, transport=service, sleep=sleeps.append), sleeps


class ErrorTest(unittest.TestCase):
    def test_the_envelope_becomes_code_reason_status(self) -> None:
        service = FakeService(always(answer(404, {"code": "not_found", "reason": "no such message"})))
        rtm, _ = client(service)
        with self.assertRaises(RtmError) as caught:
            rtm.retract("room", "msg_1")
        self.assertEqual((caught.exception.code, caught.exception.reason, caught.exception.status), ("not_found", "no such message", 404))

    def test_an_answer_without_envelope(self) -> None:
        error = RtmError.from_response(502, {"x-service-error": "unavailable"}, b"<html>bad gateway</html>")
        self.assertEqual((error.code, error.reason, error.status), ("unavailable", "<html>bad gateway</html>", 502))
        plain = RtmError.from_response(500, {}, b"")
        self.assertEqual((plain.code, plain.reason), ("http_error", None))

    def test_retry_after_in_seconds_or_as_a_date(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3.0)
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0), 10.0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))

    def test_a_missing_network_is_a_network_error(self) -> None:
        def down(*_: Any) -> HttpResponse:
            raise ConnectionRefusedError("refused")

        rtm, sleeps = client(FakeService(down))
        with self.assertRaises(RtmError) as caught:
            rtm.mint_token({"userId": "ann"})
        self.assertEqual((caught.exception.code, caught.exception.status), ("network_error", 0))
        self.assertEqual(sleeps, [], "a POST with an unknown outcome is not sent again")

    def test_bad_construction_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            RtmClient("control.test", "sk_x")
        with self.assertRaises(ValueError):
            RtmClient("http://control.test", "pk_x")


class RetryTest(unittest.TestCase):
    def test_a_get_is_retried_on_unavailable_then_answers(self) -> None:
        replies = [answer(503, {"code": "unavailable"}, {"retry-after": "1"}), answer(200, {"messages": [], "hasMore": False})]
        service = FakeService(in_turn(replies))
        rtm, sleeps = client(service)
        self.assertEqual(rtm.history("room")["messages"], [])
        self.assertEqual((len(service.calls), sleeps), (2, [1.0]))

    def test_a_post_without_a_key_is_not_retried_on_unavailable(self) -> None:
        service = FakeService(always(answer(503, {"code": "unavailable"})))
        rtm, _ = client(service)
        with self.assertRaises(RtmError) as caught:
            rtm.notify({"userIds": ["ann"], "payload": {}})
        self.assertEqual((caught.exception.code, len(service.calls)), ("unavailable", 1))

    def test_a_publish_gets_one_idempotency_key_for_every_try(self) -> None:
        replies = [answer(503, {"code": "unavailable"}), answer(503, {"code": "unavailable"}), answer(201, {"id": "msg_1", "seq": 1, "timestamp": 5})]
        service = FakeService(in_turn(replies))
        rtm, sleeps = client(service)
        self.assertEqual(rtm.publish("room", {"content": {"n": 1}}), {"id": "msg_1", "seq": 1, "timestamp": 5})
        keys: Set[str] = {(call[2] or {})["idempotencyKey"] for call in service.calls}
        self.assertEqual((len(service.calls), len(keys), len(sleeps)), (3, 1, 2))

    def test_an_ephemeral_publish_or_retries_off_sends_once(self) -> None:
        service = FakeService(always(answer(503, {"code": "unavailable"})))
        rtm, _ = client(service)
        with self.assertRaises(RtmError):
            rtm.publish("room", {"content": {}, "ephemeral": True})
        off, _ = client(service, retries=0)
        with self.assertRaises(RtmError):
            off.publish("room", {"content": {}})
        self.assertEqual(len(service.calls), 2)
        self.assertNotIn("idempotencyKey", service.calls[1][2] or {})

    def test_rate_limited_is_retried_for_any_method_unless_the_wait_is_too_long(self) -> None:
        replies = [answer(429, {"code": "rate_limited"}, {"retry-after": "2"}), answer(201, {"token": "t", "userId": "ann", "expiresAt": "x"})]
        rtm, sleeps = client(FakeService(in_turn(replies)))
        self.assertEqual(rtm.mint_token({"userId": "ann"})["token"], "t")
        self.assertEqual(sleeps, [2.0])
        long_wait = FakeService(always(answer(429, {"code": "rate_limited"}, {"retry-after": "60"})))
        rtm, sleeps = client(long_wait)
        with self.assertRaises(RtmError) as caught:
            rtm.mint_token({"userId": "ann"})
        self.assertEqual((caught.exception.retry_after, len(long_wait.calls), sleeps), (60.0, 1, []))


class RequestTest(unittest.TestCase):
    def test_path_query_body_and_key(self) -> None:
        service = FakeService(always(answer(200, {"id": "m", "seq": 1, "type": "+1", "reacted": False})))
        rtm, _ = client(service)
        rtm.remove_reaction("room/1", "msg 1", "👍", "ann")
        self.assertEqual(service.calls[0], ("DELETE", "/v1/channels/room%2F1/messages/msg%201/reactions/%F0%9F%91%8D?userId=ann", None))
        self.assertEqual(service.headers[0]["authorization"], "Bearer sk_test")

    def test_stats_sends_the_unit_and_instants_as_epoch_milliseconds(self) -> None:
        from datetime import datetime, timezone

        service = FakeService(always(answer(200, {"data": [{"start": "2026-12-07T10:00:00.000Z", "unit": "hour", "messagesPublished": 7}]})))
        rtm, _ = client(service)
        listed = rtm.stats(unit="hour", start=datetime(2026, 12, 7, 9, tzinfo=timezone.utc), end=datetime(2026, 12, 7, 11), limit=2)
        self.assertEqual(listed["data"][0]["messagesPublished"], 7)
        self.assertEqual(service.calls[0], ("GET", "/v1/stats?unit=hour&start=1796634000000&end=1796641200000&limit=2", None))

    def test_quota_reads_the_monthly_quotas(self) -> None:
        quota = {
            "period": {"start": "2026-12-01T00:00:00.000Z", "resetsAt": "2027-01-01T00:00:00.000Z"},
            "quotas": {"messages": {"limit": 10, "used": 4, "remaining": 6}, "connectionMinutes": {"limit": None, "used": 0, "remaining": None}},
        }
        service = FakeService(always(answer(200, quota)))
        rtm, _ = client(service)
        self.assertEqual(rtm.quota()["quotas"]["messages"]["remaining"], 6)
        self.assertEqual(service.calls[0], ("GET", "/v1/quota", None))

    def test_a_spent_quota_is_not_retried_and_says_which(self) -> None:
        refusal = {"quota": "monthlyMessages", "limit": 10, "used": 10, "resetsAt": "2027-01-01T00:00:00.000Z"}
        service = FakeService(always(answer(429, {"code": "quota_exceeded", "reason": "spent", "quota": refusal}, {"retry-after": "1"})))
        rtm, sleeps = client(service)
        with self.assertRaises(RtmError) as caught:
            rtm.publish("room", {"content": {}, "idempotencyKey": "k"})
        self.assertEqual((caught.exception.code, caught.exception.quota, len(service.calls), sleeps), ("quota_exceeded", refusal, 1, []))

    def test_get_ban_answers_none_for_not_found_only(self) -> None:
        rtm, _ = client(FakeService(always(answer(404, {"code": "not_found"}))))
        self.assertIsNone(rtm.get_ban("room", "ann"))
        rtm, _ = client(FakeService(always(answer(403, {"code": "forbidden"}))))
        with self.assertRaises(RtmError):
            rtm.get_ban("room", "ann")


def history_service(last_seq: int) -> FakeService:
    """A channel of messages 1..last_seq answering history as the service does (ascending pages)."""

    def handler(method: str, path: str, query: Dict[str, List[str]], body: Any) -> HttpResponse:
        limit = int(query.get("limit", ["50"])[0])
        if "after" in query:
            seqs = [s for s in range(1, last_seq + 1) if s > int(query["after"][0])][:limit]
            more = bool(seqs) and seqs[-1] < last_seq
        else:
            before = int(query.get("before", [str(last_seq + 1)])[0])
            older = [s for s in range(1, last_seq + 1) if s < before]
            seqs = older[-limit:]
            more = len(older) > limit
        return answer(200, {"messages": [{"seq": s} for s in seqs], "hasMore": more})

    return FakeService(handler)


class PagingTest(unittest.TestCase):
    def test_history_newest_and_oldest_first(self) -> None:
        service = history_service(7)
        rtm, _ = client(service)
        self.assertEqual([m["seq"] for m in rtm.iter_history("room", page_size=3)], [7, 6, 5, 4, 3, 2, 1])
        self.assertEqual([c[1] for c in service.calls], ["/v1/channels/room/history?limit=3", "/v1/channels/room/history?limit=3&before=5", "/v1/channels/room/history?limit=3&before=2"])
        self.assertEqual([m["seq"] for m in rtm.iter_history("room", newest_first=False, page_size=3, start=2)], [3, 4, 5, 6, 7])
        self.assertEqual(list(rtm.iter_history("room", start=1)), [])

    def test_cursor_pages_follow_next_cursor(self) -> None:
        pages: Dict[Optional[str], Tuple[List[str], Optional[str]]] = {None: (["a", "b"], "c1"), "c1": (["c"], "c2"), "c2": ([], None)}

        def handler(method: str, path: str, query: Dict[str, List[str]], body: Any) -> HttpResponse:
            cursor = query.get("cursor", [None])[0]
            ids, next_cursor = pages[cursor]
            return answer(200, {"data": [{"id": i} for i in ids], "nextCursor": next_cursor})

        rtm, _ = client(FakeService(handler))
        self.assertEqual([e["id"] for e in rtm.iter_webhook_endpoints()], ["a", "b", "c"])


class CoverageTest(unittest.TestCase):
    def test_every_operation_of_the_table_has_a_method(self) -> None:
        package = Path(__file__).resolve().parent.parent / "src" / "rtm_server"
        source = "".join(p.read_text("utf-8") for p in package.glob("*.py") if p.name not in ("operations.py", "models.py"))
        used = set(re.findall(r'_(?:call|or_none)\(\s*"(\w+)"', source))
        self.assertEqual(sorted(set(OPERATIONS) - used), [], "operations without a client method")
        self.assertEqual(sorted(used - set(OPERATIONS)), [], "methods calling an operation the document does not have")


if __name__ == "__main__":
    unittest.main()
