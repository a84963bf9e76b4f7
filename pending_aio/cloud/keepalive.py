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
"""Probe every API endpoint of a cloud for dropped reused connections.

For each endpoint URL of the service catalogue (every interface, each URL
once), two clients send ``--requests`` GETs each, with **no retry**, each on
one connection it reuses whenever the server keeps it open:

* ``requests``: a ``requests.Session``, what openstacksdk and
  keystoneauth use; urllib3 checks a pooled connection for a close before
  reusing it, which narrows the race to the moment of the close;
* ``http.client``: one ``http.client.HTTPConnection``, which reuses its
  connection without that check (as many HTTP clients do): after an idle
  close, the next request on it fails.

Half of the gaps between requests fall between ``K - 0.1`` and ``K + 1.1``
seconds, where ``K`` is ``--keepalive``: gunicorn closes a connection idle
for its keep-alive at its next loop tick (every second at most), so this
range straddles the whole window in which the server closes.  The other
half are random between 0 and 1 s.  A connection error or a 5xx is a
failure; any other status is the API's answer and counts as served.

Against gunicorn's default idle keep-alive of 2 s both clients fail (the
``http.client`` one on a large share of the requests after a long gap); the
embedded cloud answers ``Connection: close`` (``aio_api_keepalive``) and
must read 0 failures.  Bounded: ``--requests`` per client and endpoint,
``--deadline`` seconds in all; every client of every endpoint runs at once.

Prints one line per endpoint and client (requests, failures, responses that
closed the connection) and every failure; exits 1 on any failure or an
unfinished probe.  Uses the cloud's catalogue and token from clouds.yaml
(OS_CLIENT_CONFIG_FILE), so it runs against any cloud.
"""

import argparse
import http.client
import random
import threading
import time
import urllib.parse

import openstack
import requests


def endpoint_urls(conn):
    """Every distinct endpoint URL of the catalogue, with its service type."""
    access = conn.session.auth.get_access(conn.session)
    urls = {}
    for service in access.service_catalog.catalog:
        for endpoint in service.get('endpoints', []):
            urls.setdefault(endpoint['url'].rstrip('/'), service['type'])
    return sorted(urls.items())


def gaps(count, keepalive, rng):
    """``count`` gaps: alternately around the keep-alive and at random."""
    out = []
    for i in range(count):
        if i % 2 == 0:
            out.append(max(0.0, keepalive + rng.uniform(-0.1, 1.1)))
        else:
            out.append(rng.uniform(0.0, 1.0))
    return out


class Probe(threading.Thread):

    CLIENTS = ('requests', 'http.client')

    def __init__(self, client, url, token, schedule, deadline, timeout):
        super().__init__(daemon=True)
        self.client = client
        self.url = url
        self.headers = {'X-Auth-Token': token}
        self.schedule = schedule
        self.deadline = deadline
        self.timeout = timeout
        self.sent = 0
        self.closed = 0
        self.failures = []

    def run(self):
        send, close = (self._with_requests() if self.client == 'requests'
                       else self._with_http_client())
        try:
            for i, gap in enumerate(self.schedule):
                if time.monotonic() + gap > self.deadline:
                    return
                time.sleep(gap)
                self.sent += 1
                try:
                    status, connection = send()
                except (OSError, http.client.HTTPException,
                        requests.RequestException) as e:
                    self.failures.append('request %d after %.2f s idle: %r'
                                         % (i, gap, e))
                    continue
                if status >= 500:
                    self.failures.append('request %d after %.2f s idle: '
                                         'HTTP %d' % (i, gap, status))
                if (connection or '').lower() == 'close':
                    self.closed += 1
        finally:
            close()

    def _with_requests(self):
        http = requests.Session()   # requests' default: no retry at all

        def send():
            resp = http.get(self.url, headers=self.headers,
                            timeout=self.timeout)
            return resp.status_code, resp.headers.get('Connection')
        return send, http.close

    def _with_http_client(self):
        parts = urllib.parse.urlsplit(self.url)
        cls = (http.client.HTTPSConnection if parts.scheme == 'https'
               else http.client.HTTPConnection)
        conn = cls(parts.netloc, timeout=self.timeout)
        path = parts.path or '/'

        def send():
            try:
                conn.request('GET', path, headers=self.headers)
                resp = conn.getresponse()
                resp.read()
            except Exception:
                conn.close()   # the next request opens a new connection
                raise
            return resp.status, resp.getheader('Connection')
        return send, conn.close


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--cloud', default='aio-admin')
    # 70 requests: the probe then lasts no longer than the upstream Tempest
    # subset the functional stage runs beside it, so the stage never waits
    # for the probe alone (with 100 it did; measured in CI:
    # doc/source/data/code-timings.yaml, cloud_keepalive_probe), and still
    # makes 35 gaps per client and endpoint in the window where an idle
    # keep-alive of 2 s closes (against gunicorn's default both clients
    # fail on a large share of those).
    parser.add_argument('--requests', type=int, default=70,
                        help='requests per client and endpoint (default '
                             '70)')
    parser.add_argument('--keepalive', type=float, default=2.0,
                        help='the idle interval to straddle, in seconds '
                             '(default 2.0: gunicorn\'s default keep-alive '
                             'and openstacksdk\'s polling interval)')
    parser.add_argument('--deadline', type=float, default=600.0,
                        help='seconds for the whole probe (default 600)')
    parser.add_argument('--timeout', type=float, default=30.0,
                        help='seconds for one request (default 30)')
    parser.add_argument('--seed', type=int, default=None)
    args = parser.parse_args(argv)
    if args.requests < 1:
        parser.error('--requests must be at least 1')

    conn = openstack.connect(cloud=args.cloud)
    token = conn.session.get_token()
    urls = endpoint_urls(conn)
    if not urls:
        print('keepalive probe: FAIL: the catalogue lists no endpoint')
        return 1
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    print('keepalive probe: %d endpoints, %d clients, %d requests each, '
          'gaps of %.2f to %.2f s and 0 to 1 s, seed %d'
          % (len(urls), len(Probe.CLIENTS), args.requests,
             max(0.0, args.keepalive - 0.1), args.keepalive + 1.1, seed),
          flush=True)
    rng = random.Random(seed)
    deadline = time.monotonic() + args.deadline
    targets = [(url, service, client) for url, service in urls
               for client in Probe.CLIENTS]
    probes = [Probe(client, url, token,
                    gaps(args.requests, args.keepalive, rng),
                    deadline, args.timeout) for url, _, client in targets]
    for probe in probes:
        probe.start()
    for probe in probes:
        probe.join(max(0.0, deadline - time.monotonic()) + args.timeout)

    bad = 0
    for (url, service, client), probe in zip(targets, probes):
        unfinished = probe.is_alive() or probe.sent < args.requests
        print('%-4s %-13s %-11s %-30s sent %d, failed %d, Connection: '
              'close %d%s'
              % ('FAIL' if probe.failures or unfinished else 'ok', service,
                 client, url, probe.sent, len(probe.failures), probe.closed,
                 ', unfinished by the deadline' if unfinished else ''))
        for failure in probe.failures[:5]:
            print('     %s' % failure)
        if len(probe.failures) > 5:
            print('     ... and %d more' % (len(probe.failures) - 5))
        bad += len(probe.failures) + (1 if unfinished else 0)
    total = sum(p.sent for p in probes)
    failed = sum(len(p.failures) for p in probes)
    print('keepalive probe: %s: %d requests, %d failed'
          % ('FAIL' if bad else 'OK', total, failed))
    return 1 if bad else 0
