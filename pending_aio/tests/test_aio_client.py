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
"""The tools' retrying session (pending_aio/cloud/client.py), on a socket.

A small HTTP/1.1 server answers the first request of every connection with
a kept-alive response and drops the connection, without a response, when a
second request arrives on it: the idle-timeout race, made certain.
"""

import socket
import threading

from oslotest import base
import requests

from pending_aio.cloud import client as aio_client


class RacingServer(threading.Thread):
    """Serve one response per connection, then drop it on the next request.

    ``status`` is the status of every response; ``seen`` counts the
    requests that were answered.
    """

    def __init__(self, status=200):
        super().__init__(daemon=True)
        self.status = status
        self.seen = []
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(16)
        self.url = 'http://127.0.0.1:%d/' % self.sock.getsockname()[1]

    @staticmethod
    def _read_request(conn):
        data = b''
        while b'\r\n\r\n' not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            data += chunk
        head, _, body = data.partition(b'\r\n\r\n')
        length = 0
        for line in head.split(b'\r\n')[1:]:
            name, _, value = line.partition(b':')
            if name.strip().lower() == b'content-length':
                length = int(value)
        while len(body) < length:
            body += conn.recv(65536)
        return head.split(b' ')[0].decode()

    def run(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                method = self._read_request(conn)
                if method is None:
                    continue
                self.seen.append(method)
                conn.sendall(b'HTTP/1.1 %d X\r\nContent-Length: 2\r\n'
                             b'Connection: keep-alive\r\n\r\nok'
                             % self.status)
                # The next request on this connection meets a close.
                self._read_request(conn)

    def stop(self):
        self.sock.close()


class TestRetryingSession(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.server = RacingServer()
        self.server.start()
        self.addCleanup(self.server.stop)
        self.http = aio_client.harden(requests.Session())
        self.addCleanup(self.http.close)

    def test_idempotent_request_on_a_dropped_connection_is_sent_again(self):
        for method in ('GET', 'PUT', 'DELETE', 'HEAD'):
            self.assertEqual(200, self.http.request(
                method, self.server.url, timeout=5).status_code)
        # each request after the first met a dropped connection once
        self.assertEqual(['GET', 'PUT', 'DELETE', 'HEAD'], self.server.seen)

    def test_post_on_a_dropped_connection_raises(self):
        self.http.get(self.server.url, timeout=5)
        self.assertRaises(requests.ConnectionError, self.http.post,
                          self.server.url, data=b'x', timeout=5)
        self.assertEqual(['GET'], self.server.seen)

    def test_plain_session_fails_where_the_hardened_one_does_not(self):
        # The race is real: without the policy the second GET fails.
        plain = requests.Session()
        self.addCleanup(plain.close)
        plain.get(self.server.url, timeout=5)
        self.assertRaises(requests.ConnectionError, plain.get,
                          self.server.url, timeout=5)

    def test_server_error_is_returned_not_retried(self):
        server = RacingServer(status=503)
        server.start()
        self.addCleanup(server.stop)
        self.assertEqual(503, self.http.get(server.url, timeout=5)
                         .status_code)
        self.assertEqual(['GET'], server.seen)

    def test_service_down_raises_after_the_connect_retries(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        url = 'http://127.0.0.1:%d/' % sock.getsockname()[1]
        sock.close()   # nothing listens there
        self.assertRaises(requests.ConnectionError, self.http.get, url,
                          timeout=5)
