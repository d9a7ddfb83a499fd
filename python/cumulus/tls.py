"""The cluster's certificate and key as files, for as long as the ``Cluster`` object lives.

The details answer carries one self-signed certificate per cluster: it is the client's
certificate, its key, and the authority the scheduler's certificate is checked against
(contract section 3). ``Security`` builds contexts with exactly those rules: mutual TLS,
``CERT_REQUIRED``, no hostname check (the scheduler is reached by IP address).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed.security import Security


class TlsFiles:
    def __init__(self, cert: str, key: str):
        self.dir = tempfile.mkdtemp(prefix="cumulus-tls-")  # 0700: only this user reads the key
        self.cert = self._write("cert.pem", cert)
        self.key = self._write("key.pem", key)
        # Removed on close, on garbage collection, and at interpreter exit, whichever is first.
        self._remove = weakref.finalize(self, shutil.rmtree, self.dir, True)

    def _write(self, name: str, text: str) -> str:
        path = os.path.join(self.dir, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        return path

    def security(self) -> "Security":
        from distributed.security import Security  # here: a client without distributed uses the files alone

        return Security(
            tls_ca_file=self.cert,
            tls_client_cert=self.cert,
            tls_client_key=self.key,
            require_encryption=True,
        )

    def remove(self) -> None:
        self._remove()
