"""
Quick start of the Python server SDK: mint a user token, publish, and receive a webhook delivery
verified with the endpoint's secret.

    RTM_CONTROL_URL=http://localhost:8080 RTM_SECRET_KEY=sk_… python3 quickstart.py

The receiver listens on 127.0.0.1, which the service delivers to only when WEBHOOK_ALLOW_LOOPBACK
is on (as under `npm start`); in production the endpoint is your public URL.
"""
from __future__ import annotations

import os
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, List

from rtm_server import RtmClient, WebhookVerificationError, parse_webhook
from rtm_server.models import WebhookEvent

rtm = RtmClient(os.environ["RTM_CONTROL_URL"], os.environ["RTM_SECRET_KEY"])

# 1. a token for a user's browser or app: it connects to the realtime edge with it
token = rtm.mint_token({"userId": "alice", "ttlSeconds": 3600})
print("token for", token["userId"], "expires at", token["expiresAt"])

# 2. a webhook receiver: verify the raw bytes with the endpoint's secret before trusting them
events: List[WebhookEvent] = []
secret = ""


class Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("content-length", "0")))
        try:
            event = parse_webhook(raw, self.headers, secret)
        except WebhookVerificationError as error:
            print("refused a delivery:", error.reason)
            self.send_response(401)
            self.end_headers()
            return
        events.append(event)
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), Hook)
threading.Thread(target=server.serve_forever, daemon=True).start()
endpoint = rtm.create_webhook_endpoint({"url": f"http://127.0.0.1:{server.server_address[1]}/hook", "channels": ["room-1"]})
secret = endpoint["secret"]

# 3. publish a server message; the endpoint receives it as `message.published`
message = rtm.publish("room-1", {"content": {"text": "hello from Python"}})
print("published", message["id"])
deadline = time.monotonic() + 30
while not any(e["type"] == "message.published" and e["data"].get("id") == message["id"] for e in events):
    if time.monotonic() > deadline:
        raise SystemExit("no delivery within 30 s")
    time.sleep(0.1)
print("verified delivery of", message["id"])

rtm.delete_webhook_endpoint(endpoint["id"])
server.shutdown()
