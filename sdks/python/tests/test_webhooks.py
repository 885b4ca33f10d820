"""The verifier against fixed vectors: the Standard Webhooks specification's own, and the service's signer's."""
from __future__ import annotations

import unittest
from email.message import Message

from rtm_server import WebhookVerificationError, parse_webhook, verify_service_signature, verify_standard_webhook, verify_webhook

BODY = '{"id":"evt_1","type":"message.published","data":{"text":"héllo"}}'
# signed by libs/webhooks/src/signature.ts with ["whsec_new", "whsec_old"] at 1700000000 (a rotation: two v1)
SERVICE_HEADER = (
    "t=1700000000,v1=8485374ed76243b159b62446575eb1c7ba8ca049789626dee6aaa7dec98ad444,"
    "v1=eb83385ac7d8bc90d53c29c1da0e8a92cba0ea99156a7bf89de2a1e4c590c0ab"
)
NOW = 1700000100.0
# the example of the Standard Webhooks specification (standardwebhooks.com)
SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
SPEC_BODY = '{"test": 2432232314}'
SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


class ServiceSignatureTest(unittest.TestCase):
    def test_either_secret_of_a_rotation_verifies(self) -> None:
        for secret in ("whsec_new", "whsec_old"):
            self.assertEqual(verify_service_signature(BODY.encode(), SERVICE_HEADER, secret, now=NOW), 1700000000)

    def test_refusals_say_which_check_failed(self) -> None:
        cases = [
            (BODY, SERVICE_HEADER, "whsec_other", NOW, "signature mismatch"),
            (BODY.replace("héllo", "hello"), SERVICE_HEADER, "whsec_new", NOW, "signature mismatch"),
            (BODY, SERVICE_HEADER, "whsec_new", 1700000301.0, "timestamp outside the tolerance"),
            (BODY, "", "whsec_new", NOW, "missing signature header"),
            (BODY, "v1=abc", "whsec_new", NOW, "no t in signature header"),
            (BODY, "t=1700000000", "whsec_new", NOW, "no v1 in signature header"),
            (BODY, "t=soon,v1=abc", "whsec_new", NOW, "malformed t"),
        ]
        for body, header, secret, now, reason in cases:
            with self.subTest(reason=reason, header=header), self.assertRaises(WebhookVerificationError) as caught:
                verify_service_signature(body, header, secret, now=now)
            self.assertEqual(caught.exception.reason, reason)


class StandardWebhooksTest(unittest.TestCase):
    def test_the_specification_vector(self) -> None:
        self.assertEqual(verify_standard_webhook(SPEC_BODY, SPEC_ID, "1614265330", SPEC_SIGNATURE, SPEC_SECRET, now=1614265330), 1614265330)

    def test_a_base64url_secret_decodes_as_the_service_does(self) -> None:
        # signed by libs/webhooks/src/standard-webhooks.ts (Node's lenient base64) with whsec_ab-c_d
        self.assertEqual(verify_standard_webhook(BODY, "evt_1", "1700000000", "v1,oz2BLqgjG0F5pYCZkg54XUnlSI3SDOIN6Xnm3gQYwA4=", "whsec_ab-c_d", now=NOW), 1700000000)

    def test_any_entry_of_a_rotation_matches_and_a_changed_byte_does_not(self) -> None:
        two = f"v1,bm90IGl0 {SPEC_SIGNATURE}"
        self.assertEqual(verify_standard_webhook(SPEC_BODY, SPEC_ID, "1614265330", two, SPEC_SECRET, now=1614265330), 1614265330)
        for body, msg_id, signature in ((SPEC_BODY + " ", SPEC_ID, SPEC_SIGNATURE), (SPEC_BODY, "msg_other", SPEC_SIGNATURE), (SPEC_BODY, SPEC_ID, "v2," + SPEC_SIGNATURE[3:])):
            with self.subTest(body=body, msg_id=msg_id, signature=signature), self.assertRaises(WebhookVerificationError):
                verify_standard_webhook(body, msg_id, "1614265330", signature, SPEC_SECRET, now=1614265330)

    def test_missing_headers_and_a_stale_timestamp_are_refused(self) -> None:
        with self.assertRaises(WebhookVerificationError) as missing:
            verify_standard_webhook(SPEC_BODY, SPEC_ID, None, SPEC_SIGNATURE, SPEC_SECRET, now=1614265330)
        self.assertIn("missing", missing.exception.reason)
        with self.assertRaises(WebhookVerificationError) as stale:
            verify_standard_webhook(SPEC_BODY, SPEC_ID, "1614265330", SPEC_SIGNATURE, SPEC_SECRET, now=1614265330 + 301)
        self.assertEqual(stale.exception.reason, "timestamp outside the tolerance")


class VerifyWebhookTest(unittest.TestCase):
    def test_headers_of_any_case_pick_the_scheme(self) -> None:
        self.assertEqual(verify_webhook(BODY, {"Service-Signature": SERVICE_HEADER}, "whsec_new", now=NOW), 1700000000)
        standard = {"Webhook-Id": SPEC_ID, "Webhook-Timestamp": "1614265330", "Webhook-Signature": SPEC_SIGNATURE}
        self.assertEqual(verify_webhook(SPEC_BODY, standard, SPEC_SECRET, now=1614265330), 1614265330)
        # http.server hands headers as an email.message.Message
        message = Message()
        message["service-signature"] = SERVICE_HEADER
        self.assertEqual(verify_webhook(BODY.encode(), message, "whsec_old", now=NOW), 1700000000)
        self.assertEqual(verify_webhook(BODY, SERVICE_HEADER, "whsec_old", now=NOW), 1700000000)

    def test_service_signature_wins_when_both_are_present(self) -> None:
        headers = {"service-signature": "t=1700000000,v1=00", "webhook-id": "evt_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,oz2BLqgjG0F5pYCZkg54XUnlSI3SDOIN6Xnm3gQYwA4="}
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, headers, "whsec_ab-c_d", now=NOW)

    def test_parse_webhook_answers_the_event_only_when_verified(self) -> None:
        event = parse_webhook(BODY.encode(), {"service-signature": SERVICE_HEADER}, "whsec_new", now=NOW)
        self.assertEqual((event["id"], event["type"]), ("evt_1", "message.published"))
        with self.assertRaises(WebhookVerificationError):
            parse_webhook(BODY.replace("evt_1", "evt_2"), {"service-signature": SERVICE_HEADER}, "whsec_new", now=NOW)
        with self.assertRaises(WebhookVerificationError):
            parse_webhook(BODY, {}, "whsec_new", now=NOW)


if __name__ == "__main__":
    unittest.main()
