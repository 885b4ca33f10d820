"""
The SDK against a running cluster, driven by test/sdk.python.test.ts (not a unittest module: it
needs RTM_CONTROL_URL and RTM_SECRET_KEY). It talks to the Node side in JSON lines: it prints
`{"kind": …}` on stdout and reads the answers on stdin (Python's standard library has no
WebSocket client, so the Node side opens the socket with the token minted here).
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Callable, Dict, List, Tuple

from rtm_server import RtmClient, RtmError, WebhookVerificationError, parse_webhook, verify_service_signature, verify_standard_webhook
from rtm_server.models import PublishBatchBodyMessage

CHANNEL = "py-room"
Delivery = Tuple[Dict[str, str], bytes]


def say(kind: str, **data: Any) -> None:
    print(json.dumps({"kind": kind, **data}), flush=True)


def hear(kind: str) -> Dict[str, Any]:
    message: Dict[str, Any] = json.loads(sys.stdin.readline())
    if message.get("kind") != kind:
        raise AssertionError(f"expected {kind} from the test, got {message}")
    return message


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def refused(call: Callable[[], object]) -> RtmError:
    try:
        call()
    except RtmError as error:
        return error
    raise AssertionError("the call succeeded")


class Receiver:
    """An http.server endpoint that verifies each delivery with the SDK and answers 200 or 401."""

    def __init__(self) -> None:
        self.secret = ""
        self.deliveries: List[Delivery] = []
        self.verdicts: List[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                try:
                    parse_webhook(raw, self.headers, receiver.secret)
                    status = 200
                except WebhookVerificationError:
                    status = 401
                receiver.deliveries.append(({k.lower(): v for k, v in self.headers.items()}, raw))
                receiver.verdicts.append(status)
                self.send_response(status)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def wait_for(self, needle: bytes, what: str, limit: float = 30.0) -> Delivery:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            for delivery in list(self.deliveries):
                if needle in delivery[1]:
                    return delivery
            time.sleep(0.05)
        raise AssertionError(f"{what}: not delivered in {limit} s")


def main() -> None:
    rtm = RtmClient(os.environ["RTM_CONTROL_URL"], os.environ["RTM_SECRET_KEY"])

    # a token for the Node side's socket, then a publish it must see
    token = rtm.mint_token({"userId": "py-alice", "ttlSeconds": 600})
    check(token["userId"] == "py-alice", "minted for py-alice")
    say("token", token=token["token"], channel=CHANNEL)
    hear("subscribed")
    published = rtm.publish(CHANNEL, {"content": {"text": "from python"}, "senderId": "py-bot"})
    check("seq" in published, "a persisted publish answers its seq")
    say("published", id=published["id"])
    hear("seen")

    # a batch, then history page by page in both directions
    batch: List[PublishBatchBodyMessage] = [{"channelId": CHANNEL, "content": {"n": n}} for n in range(2, 8)]
    batch.append({"channelId": CHANNEL, "content": {"x": "y" * 70000}})
    results = rtm.publish_batch(batch)
    check([r.get("seq") for r in results[:6]] == [2, 3, 4, 5, 6, 7], f"batch seqs {results}")
    last = results[6]
    check("error" in last and last["error"]["code"] == "payload_too_large", f"the oversized one refused in its slot: {last}")
    newest = [m["seq"] for m in rtm.iter_history(CHANNEL, page_size=2)]
    oldest = [m["seq"] for m in rtm.iter_history(CHANNEL, newest_first=False, page_size=3)]
    check(newest == [7, 6, 5, 4, 3, 2, 1] and oldest == [1, 2, 3, 4, 5, 6, 7], f"history {newest} {oldest}")
    again = rtm.publish(CHANNEL, {"content": {"n": 2}, "idempotencyKey": "py-k1"})
    check(rtm.publish(CHANNEL, {"content": {"n": 2}, "idempotencyKey": "py-k1"}) == again, "an idempotency key publishes once")

    # the error envelope as RtmError
    missing = refused(lambda: rtm.retract(CHANNEL, "msg_00000000000000000000000000"))
    check((missing.status, missing.code) == (404, "not_found"), f"retract of a missing message: {missing}")
    bad = refused(lambda: rtm.publish("bad channel!", {"content": {}}))
    check(bad.status == 400 and bad.code != "http_error", f"a bad channel id: {bad}")

    # members and bans
    rtm.put_member(CHANNEL, "py-bob", {"role": "moderator"})
    rtm.put_member(CHANNEL, "py-carol")
    roles = {m["userId"]: m["role"] for m in rtm.iter_members(CHANNEL, page_size=1)}
    check(roles.get("py-bob") == "moderator" and roles.get("py-carol") == "member", f"every member over pages of one: {roles}")
    rtm.ban(CHANNEL, "py-carol", {"reason": "spam"})
    ban = rtm.get_ban(CHANNEL, "py-carol")
    check(ban is not None and ban["reason"] == "spam", f"the ban {ban}")
    rtm.unban(CHANNEL, "py-carol")
    check(rtm.get_ban(CHANNEL, "py-carol") is None, "unbanned")

    # an endpoint: create, list, update, secret, test event, real deliveries verified, rotation, delete
    receiver = Receiver()
    created = rtm.create_webhook_endpoint({"url": receiver.url, "channels": [CHANNEL], "description": "python"})
    receiver.secret = created["secret"]
    check(created["id"] in [e["id"] for e in rtm.iter_webhook_endpoints(page_size=1)], "listed")
    check(rtm.update_webhook_endpoint(created["id"], {"description": "python sdk"})["description"] == "python sdk", "updated")
    check(rtm.webhook_endpoint_secret(created["id"]) == created["secret"], "the same secret")
    test_event = rtm.test_webhook_endpoint(created["id"])
    check(test_event["eventType"] == "webhook.test", f"the test event {test_event}")
    receiver.wait_for(b"webhook.test", "the test event")

    message = rtm.publish(CHANNEL, {"content": {"text": "hooked"}})
    headers, raw = receiver.wait_for(message["id"].encode(), "the message.published delivery")
    verify_service_signature(raw, headers["service-signature"], created["secret"])
    verify_standard_webhook(raw, headers["webhook-id"], headers["webhook-timestamp"], headers["webhook-signature"], created["secret"])
    altered = raw.replace(b"hooked", b"hacked")
    for verify in (
        lambda: verify_service_signature(altered, headers["service-signature"], created["secret"]),
        lambda: verify_standard_webhook(altered, headers["webhook-id"], headers["webhook-timestamp"], headers["webhook-signature"], created["secret"]),
        lambda: parse_webhook(altered, headers, created["secret"]),
    ):
        try:
            verify()
            raise AssertionError("an altered body verified")
        except WebhookVerificationError as error:
            check(error.reason == "signature mismatch", error.reason)
    event = parse_webhook(raw, headers, created["secret"])
    check(event["type"] == "message.published" and event["data"]["id"] == message["id"], f"the event {event}")
    check(all(v == 200 for v in receiver.verdicts), f"the receiver refused a real delivery: {receiver.verdicts}")

    old_secret = created["secret"]
    new_secret = rtm.rotate_webhook_endpoint_secret(created["id"])
    receiver.secret = new_secret
    rotated = rtm.publish(CHANNEL, {"content": {"text": "rotated"}})
    headers, raw = receiver.wait_for(rotated["id"].encode(), "the delivery after rotation")
    for secret in (new_secret, old_secret):
        verify_service_signature(raw, headers["service-signature"], secret)
        verify_standard_webhook(raw, headers["webhook-id"], headers["webhook-timestamp"], headers["webhook-signature"], secret)

    rtm.delete_webhook_endpoint(created["id"])
    gone = refused(lambda: rtm.webhook_endpoint(created["id"]))
    check(gone.status == 404, f"deleted: {gone}")
    receiver.server.shutdown()
    say("done", deliveries=len(receiver.deliveries), verdicts=receiver.verdicts)


if __name__ == "__main__":
    main()
