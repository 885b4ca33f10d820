"""Credentials and erasure: logs tokens, revocations, signing keys, tenant token keys, user erasure."""
from __future__ import annotations

from typing import Optional

from ._http import Core
from .models import (
    ErasureJob,
    LogsToken,
    MintLogsTokenBody,
    PutTokenKeyBody,
    RevokedToken,
    RevokedUserTokens,
    RotatedSigningKey,
    RotateSigningKeyBody,
    SigningKeyList,
    TokenJwks,
    TokenKey,
    TokenKeyList,
)


class KeyMethods(Core):
    def mint_logs_token(self, environment_id: str, body: Optional[MintLogsTokenBody] = None) -> LogsToken:
        """A token for the live logs socket of the key's own environment."""
        return self._call("mintLogsToken", {"envId": environment_id}, body=body)

    def revoke_token(self, jti: str) -> RevokedToken:
        """Revokes one user token by its `jti`: refused everywhere at once, its sockets close."""
        return self._call("revokeToken", body={"jti": jti}, retry_safe=True)

    def revoke_user_tokens(self, user_id: str) -> RevokedUserTokens:
        """Revokes every token of a user minted before now."""
        return self._call("revokeUserTokens", {"userId": user_id})

    def signing_keys(self) -> SigningKeyList:
        return self._call("listSigningKeys")

    def rotate_signing_key(self, body: Optional[RotateSigningKeyBody] = None) -> RotatedSigningKey:
        """Rotates the token signing key; the old one verifies for `graceSeconds` (default 24 h)."""
        return self._call("rotateSigningKey", body=body)

    def token_keys(self) -> TokenKeyList:
        """The public keys (and JWKS URL) the environment's backend signs user tokens with."""
        return self._call("listTokenKeys")

    def put_token_key(self, kid: str, body: PutTokenKeyBody) -> TokenKey:
        """Registers (or replaces) a public key for tenant-signed user tokens."""
        return self._call("putTokenKey", {"kid": kid}, body=body)

    def delete_token_key(self, kid: str) -> None:
        self._call("deleteTokenKey", {"kid": kid})

    def set_token_jwks(self, url: str) -> TokenJwks:
        """Sets the JWKS URL the gateways fetch tenant token keys from."""
        return self._call("putTokenJwks", body={"url": url})

    def remove_token_jwks(self) -> None:
        self._call("deleteTokenJwks")

    def erase_user_messages(self, user_id: str) -> ErasureJob:
        """Starts retracting every message of a user; follow the job with `erasure_job`."""
        return self._call("eraseUserMessages", {"userId": user_id})

    def erasure_job(self, job_id: str) -> ErasureJob:
        return self._call("getErasureJob", {"jobId": job_id})
