# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""A TLS endpoint with a private CA in front of one of the cloud's ports.

Used by functional-runner (runner_stage.py) to show that a cloud whose
Keystone speaks TLS with a certificate of a private CA is reached through
clouds.yaml's
``cacert`` (openstacksdk during init and the leak check, Tempest through
``[identity] ca_certificates_file``).  The embedded cloud itself serves
plain HTTP on 127.0.0.1; only the authentication URL of the test's cloud
entry goes through this endpoint.

    python -m pending_aio tls-proxy DIR LISTEN_PORT TARGET_PORT

writes DIR/ca.pem (the CA the client must trust), then serves TLS on
127.0.0.1:LISTEN_PORT, relaying every connection to 127.0.0.1:TARGET_PORT,
until killed.  It prints ``ready`` once it listens.
"""

import asyncio
import datetime
import ipaddress
import os
import ssl
import sys

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization
from cryptography import x509
from cryptography.x509.oid import NameOID


def _cert(subject, issuer, key, issuer_key, ca):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(
                   NameOID.COMMON_NAME, subject)]))
               .issuer_name(x509.Name([x509.NameAttribute(
                   NameOID.COMMON_NAME, issuer)]))
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None),
                              critical=True))
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address('127.0.0.1'))]),
            critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def make_certs(folder):
    """DIR/ca.pem, DIR/server.pem and DIR/server.key; the server context."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _cert('pending-conformance test CA', 'pending-conformance test CA',
               ca_key, ca_key, ca=True)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _cert('127.0.0.1', 'pending-conformance test CA', key, ca_key,
                 ca=False)
    pem = serialization.Encoding.PEM
    with open(os.path.join(folder, 'ca.pem'), 'wb') as f:
        f.write(ca.public_bytes(pem))
    with open(os.path.join(folder, 'server.pem'), 'wb') as f:
        f.write(cert.public_bytes(pem) + ca.public_bytes(pem))
    fd = os.open(os.path.join(folder, 'server.key'),
                 os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'wb') as f:
        f.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(folder, 'server.pem'),
                            os.path.join(folder, 'server.key'))
    return context


async def _pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def serve(folder, listen, target):
    context = make_certs(folder)

    async def relay(client_reader, client_writer):
        try:
            reader, writer = await asyncio.open_connection('127.0.0.1',
                                                           target)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(_pipe(client_reader, writer),
                             _pipe(reader, client_writer))

    server = await asyncio.start_server(relay, '127.0.0.1', listen,
                                        ssl=context)
    print('ready', flush=True)
    async with server:
        await server.serve_forever()


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: python -m pending_aio tls-proxy DIR LISTEN_PORT '
                 'TARGET_PORT')
    asyncio.run(serve(argv[0], int(argv[1]), int(argv[2])))
