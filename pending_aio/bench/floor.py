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
"""The cloud's own floor: what a server operation costs by direct API calls.

``python -m pending_aio bench-floor [--samples N] [--out JSON]
[--pending-microversion MV] [--concurrency C] [--compute-service-type
T]``, with the tools venv's python (openstacksdk) and
OS_CLIENT_CONFIG_FILE pointing at .aio/clouds.yaml; bench-suite runs it
before the suite, once with one client and once with as many clients as
the suite has workers.  Each client does one operation at a time, as the
member persona (admin for the NoValidHost flavor and its trait), N
samples each (default 3), each answer polled every :data:`POLL` seconds
times C (together the C clients poll as often as one does), the median
of every client's samples kept:

- ``active``: POST /servers (flavor aio.nano, image aio-tiny, network
  aio-member-net) to the first GET that says ACTIVE;
- ``pending``: the same with a private flavor that requires a trait no
  provider has (the plugin's NoValidHost trigger,
  pending_tempest_plugin/common/novalidhost.py), at the PENDING
  microversion, to the first GET that says PENDING (use_pending_state on)
  or ERROR (off): the server buried in cell0;
- ``delete``: DELETE of an ACTIVE server to the GET that answers 404.

The buried servers of a client stay until its last sample: C x N of them
at once, plus C ACTIVE ones, must fit the member project's instances
quota (10 on the embedded cloud: C 2 and N up to 4).  With C clients at
once each operation takes what it takes while C of them share the cloud:
the floor of a leg that runs C tests at once (suitebench.py).
Everything it creates is deleted in ``finally`` blocks (servers, then
the trait, then the flavor): ``check-clean`` passes afterwards.  Prints
one line per operation; ``--out`` writes ``{"active": [s...],
"pending": [...], "delete": [...], "pending_status": "PENDING",
"concurrency": C}``.
"""

import argparse
import json
import threading
import time
import uuid

from pending_aio.bench import suite as suitebench
from pending_aio.cloud import client
from pending_tempest_plugin.common import polling

POLL = 0.05
TIMEOUT = 120
NAME = 'aio-bench-floor'
FINAL = ('ACTIVE', 'ERROR', 'PENDING')


def _server_status(conn, server_id, microversion):
    """The server's status, or None once the API answers 404."""
    resp = conn.compute.get('/servers/%s' % server_id,
                            microversion=microversion)
    if resp.status_code == 404:
        return None
    resp.raise_for_status()
    return resp.json()['server']['status']


def _wait(conn, server_id, microversion, done, t0, poll=POLL):
    """Seconds from T0 until ``done(status)``; fails on a timeout."""
    status = polling.poll(
        lambda: _server_status(conn, server_id, microversion), done,
        TIMEOUT - (time.monotonic() - t0), poll,
        what='bench-floor: server %s' % server_id,
        timed_out=lambda status: SystemExit(
            'bench-floor: server %s still %s after %d s'
            % (server_id, status, TIMEOUT)))
    return time.monotonic() - t0, status


def _boot(conn, body, microversion):
    t0 = time.monotonic()
    resp = conn.compute.post('/servers', json={'server': body},
                             microversion=microversion)
    resp.raise_for_status()
    return resp.json()['server']['id'], t0


def _delete(conn, server_id, microversion, poll=POLL):
    """Seconds from DELETE to 404."""
    t0 = time.monotonic()
    resp = conn.compute.delete('/servers/%s' % server_id,
                               microversion=microversion)
    if resp.status_code != 404:
        resp.raise_for_status()
    seconds, _ = _wait(conn, server_id, microversion,
                       lambda status: status is None, t0, poll)
    return seconds


def _sample(member, body, microversion, wanted, created, poll=POLL):
    """One boot: (seconds to a final status, that status, server id).

    A final status not in WANTED fails the benchmark.
    """
    server_id, t0 = _boot(member, body, microversion)
    created.append(server_id)
    seconds, status = _wait(member, server_id, microversion,
                            lambda s: s in FINAL, t0, poll)
    if status not in wanted:
        raise SystemExit('bench-floor: server %s went %s, not %s'
                         % (server_id, status, '/'.join(wanted)))
    return seconds, status, server_id


def _cleanup_servers(member, created, microversion, poll=POLL):
    for server_id in created:
        try:
            _delete(member, server_id, microversion, poll)
        except Exception as exc:   # keep cleaning up the others
            print('bench-floor: cleanup of server %s: %s' % (server_id, exc))


def measure(member, admin, samples, pending_microversion, poll=POLL):
    """{operation: [seconds...]} and the status buried servers showed."""
    net = member.network.find_network('aio-member-net', ignore_missing=False)
    base = member.compute.find_flavor('aio.nano', ignore_missing=False)
    body = {'name': NAME, 'networks': [{'uuid': net.id}],
            'imageRef': member.image.find_image('aio-tiny',
                                                ignore_missing=False).id,
            'flavorRef': base.id}
    got = {'active': [], 'pending': [], 'delete': []}
    created = []
    try:
        for _ in range(samples):
            seconds, _, server_id = _sample(
                member, body, '2.1', ('ACTIVE',), created, poll)
            got['active'].append(seconds)
            created.remove(server_id)
            got['delete'].append(_delete(member, server_id, '2.1', poll))
    finally:
        _cleanup_servers(member, created, '2.1', poll)
    status = None
    with nvh_flavor(admin, base, member.current_project_id) as flavor_id:
        pending = dict(body, flavorRef=flavor_id)
        try:
            for _ in range(samples):
                seconds, status, server_id = _sample(
                    member, pending, pending_microversion,
                    ('PENDING', 'ERROR'), created, poll)
                got['pending'].append(seconds)
        finally:
            _cleanup_servers(member, created, pending_microversion, poll)
    return got, status


class nvh_flavor(object):
    """A private flavor no host can take (a required trait on no provider).

    Created with its trait and shared with the member's project; the trait
    and the flavor are deleted on the way out.
    """

    def __init__(self, admin, base, project_id):
        self.admin, self.base, self.project_id = admin, base, project_id
        self.trait = 'CUSTOM_AIO_BENCH_FLOOR_%s' % uuid.uuid4().hex.upper()
        self.flavor_id = None

    def __enter__(self):
        resp = self.admin.compute.post('/flavors', json={'flavor': {
            'name': 'aio-bench-floor-%s' % uuid.uuid4().hex[:8],
            'ram': self.base.ram, 'vcpus': self.base.vcpus,
            'disk': self.base.disk, 'os-flavor-access:is_public': False}})
        resp.raise_for_status()
        self.flavor_id = resp.json()['flavor']['id']
        try:
            self.admin.placement.put('/traits/%s' % self.trait,
                                     microversion='1.6').raise_for_status()
            self.admin.compute.post(
                '/flavors/%s/os-extra_specs' % self.flavor_id,
                json={'extra_specs': {'trait:%s' % self.trait: 'required'}},
            ).raise_for_status()
            self.admin.compute.post(
                '/flavors/%s/action' % self.flavor_id,
                json={'addTenantAccess': {'tenant': self.project_id}},
            ).raise_for_status()
        except BaseException:
            self.__exit__()
            raise
        return self.flavor_id

    def __exit__(self, *exc):
        self.admin.placement.delete('/traits/%s' % self.trait,
                                    microversion='1.6')
        self.admin.compute.delete('/flavors/%s' % self.flavor_id)


def measure_together(connect, concurrency, samples, pending_microversion):
    """:func:`measure` by ``concurrency`` clients at once, merged.

    ``connect(cloud)`` gives each client connections of its own, made
    (authenticated) before any client starts.  Each polls ``concurrency``
    times less often than one client alone.  The first client error is
    raised once every client has ended (each has deleted what it created).
    """
    results, errors = [None] * concurrency, []
    conns = [(connect('aio-member'), connect('aio-admin'))
             for _ in range(concurrency)]

    def client(i):
        try:
            results[i] = measure(conns[i][0], conns[i][1], samples,
                                 pending_microversion, POLL * concurrency)
        except BaseException as exc:   # raised below, after the others
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(i,))
               for i in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    got = {'active': [], 'pending': [], 'delete': []}
    for one, _ in results:
        for op in got:
            got[op].extend(one[op])
    return got, results[0][1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--samples', type=int, default=3)
    parser.add_argument('--out')
    parser.add_argument('--pending-microversion', default='2.1',
                        help='the microversion of the PENDING boots (the '
                        "cloud's pending_state_microversion)")
    parser.add_argument('--compute-service-type', default='compute',
                        help="the compute endpoint's service type (a "
                        "control plane's: compute-PLANE); default compute")
    parser.add_argument('--concurrency', type=int, default=1,
                        help='clients at once (the workers of the leg); '
                        'default 1')
    args = parser.parse_args(argv)
    if args.concurrency < 1:
        parser.error('--concurrency must be 1 or more')

    def connect(cloud):
        return client.connect(
            cloud, compute_service_type=args.compute_service_type)
    if args.concurrency == 1:
        got, status = measure(connect('aio-member'), connect('aio-admin'),
                              args.samples, args.pending_microversion)
    else:
        got, status = measure_together(connect, args.concurrency,
                                       args.samples,
                                       args.pending_microversion)
    label = ('' if args.concurrency == 1
             else ', %d clients at once' % args.concurrency)
    for op, what in (('active', 'boot to ACTIVE'),
                     ('pending', 'boot to %s (NoValidHost)' % status),
                     ('delete', 'delete to gone')):
        print('floor%s: %-30s median %5.2f s  (%s)' % (
            label, what, suitebench.median(got[op]),
            ', '.join('%.2f' % s for s in got[op])))
    if args.out:
        with open(args.out, 'w') as f:
            json.dump(dict(got, pending_status=status,
                           concurrency=args.concurrency), f)
    return 0
