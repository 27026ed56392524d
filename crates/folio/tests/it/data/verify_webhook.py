"""Verifies one webhook delivery with the `standardwebhooks` package (a verifier folio did not
write). Reads {"secret", "body" (base64), "headers", "shift_seconds"} as JSON on stdin and prints
"ok" or "rejected: <reason>". `shift_seconds` moves the verifier's clock, to replay a delivery
later than it was sent."""

import base64
import datetime as real_datetime
import json
import sys

import standardwebhooks.webhooks as webhooks

request = json.load(sys.stdin)
shift = real_datetime.timedelta(seconds=request.get("shift_seconds", 0))


class ShiftedClock(real_datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return real_datetime.datetime.now(tz) + shift


webhooks.datetime = ShiftedClock
try:
    webhooks.Webhook(request["secret"]).verify(
        base64.b64decode(request["body"]), request["headers"]
    )
    print("ok")
except webhooks.WebhookVerificationError as error:
    print(f"rejected: {error}")
