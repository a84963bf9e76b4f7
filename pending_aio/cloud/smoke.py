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
"""Smoke checks proving the embedded cloud is a real cloud.

``python -m pending_aio smoke --supervisorctl PATH``, with the tools venv's
python (openstacksdk, and python-openstackclient beside it) and
OS_CLIENT_CONFIG_FILE pointing at .aio/clouds.yaml.  The servers of
checks 1 to 4 are created and deleted through the ``openstack`` command
line, the commands an operator types (``openstack --os-cloud aio-member
server create ... --wait``, ``server delete --wait``); what the checks
then read (the host, the ports, host_status at microversion 2.16, polled)
goes through one openstacksdk connection per persona, as check 5 does for
its block device mapping: a command-line call costs a Python start and a
token each, which the functional stage's 2 busy cores pay for (measured:
doc/source/data/code-timings.yaml, smoke_reads_in_process).

1. the member boots a server on its own network: ACTIVE, its port bound by
   ML2/OVN (binding:vif_type ovs) on a compute host;
2. a second one, with a different_host hint, lands on the other compute
   host, bound there too;
3. admin at microversion 2.16 reads host_status UP; after the supervisor
   stops that server's nova-compute it reads UNKNOWN within the bound; after
   start, UP again;
4. both servers are deleted and their ports are gone;
5. beside 3 and 4, away from the host 3 stops (a different_host hint),
   the member boots from a volume Cinder makes from the image, with a
   blank data volume as a second disk: ACTIVE, both volumes in-use;
   deleting the server deletes the root volume (delete_on_termination) and
   returns the data volume to available.  (It ran after 4 until the
   functional stage needed the time: measured,
   doc/source/data/code-timings.yaml, smoke_volume_beside.)

Prints one line per check and exits non-zero at the first failure (5's
once 4 is done, and 5 always ended first).
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

from pending_aio import checks
from pending_aio.cloud import client

check = checks.check
wait_for = checks.wait_for


OPENSTACK = os.path.join(os.path.dirname(sys.executable), 'openstack')


def cli(cloud, *words, timeout=120, output=True):
    """Run ``openstack --os-cloud CLOUD WORDS -f json``; its parsed output.

    ``output=False`` for a command that prints nothing (no ``-f json``).

    A non-zero exit (an ERROR server under --wait, an unknown network, a
    refused request) or no answer within the timeout fails the check with
    what the command printed.
    """
    cmd = [OPENSTACK, '--os-cloud', cloud] + list(words)
    if output:
        cmd += ['-f', 'json']
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        check(False, 'no answer within %ds from: %s'
              % (timeout, ' '.join(cmd[1:])))
    if proc.returncode != 0:
        check(False, 'openstack %s (exit %d): %s' % (
            ' '.join(cmd[1:]), proc.returncode, proc.stderr.strip()[-800:]))
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def show(admin, server_id, microversion):
    """GET /servers/{id} as admin at ``microversion``: the server's body."""
    response = admin.compute.get('/servers/%s' % server_id,
                                 microversion=microversion)
    if response.status_code != 200:
        check(False, 'GET /servers/%s at %s: %d %s' % (
            server_id, microversion, response.status_code,
            response.text[:300]))
    return response.json()['server']


def host_status(admin, server_id):
    return show(admin, server_id, '2.16').get('host_status')


def ports_of(admin, server_id):
    return list(admin.network.ports(device_id=server_id))


def boot(args, admin, name, different_host=None):
    hint = ['--hint', 'different_host=%s' % different_host] \
        if different_host else []
    server = cli('aio-member', 'server', 'create', '--flavor', args.flavor,
                 '--image', args.image, '--network', args.network, *hint,
                 '--wait', '-c', 'id', '-c', 'status', name,
                 timeout=args.timeout)
    check(server['status'] == 'ACTIVE', '%s ACTIVE (openstack server '
          'create --wait)' % name)
    host = show(admin, server['id'], '2.1')['OS-EXT-SRV-ATTR:host']
    ports = ports_of(admin, server['id'])
    check(len(ports) == 1, '%s has one port' % name)
    port = ports[0]
    check(port.binding_vif_type == 'ovs' and port.binding_host_id == host,
          '%s port %s bound by OVN on %s (vif_type=%s, host=%s)'
          % (name, port.id, host, port.binding_vif_type,
             port.binding_host_id))
    return server['id'], host


def volume_smoke(member, args, different_host=None):
    """Boot from a volume made from the image, with a blank data volume.

    Deleting the server deletes the root volume (delete_on_termination)
    and returns the data volume to available; the data volume is then
    deleted too.  ``different_host``: a server whose host it must avoid.
    """
    net = member.network.find_network(args.network)
    data = member.block_storage.create_volume(size=1, name='aio-smoke-data')
    try:
        data = member.block_storage.wait_for_status(
            data, 'available', failures=['error'], wait=args.timeout)
        check(True, 'blank data volume %s available' % data.id)
        server = member.compute.create_server(
            name='aio-smoke-bfv',
            flavor_id=member.compute.find_flavor(args.flavor).id,
            networks=[{'uuid': net.id}],
            block_device_mapping=[
                {'boot_index': 0, 'source_type': 'image',
                 'destination_type': 'volume', 'volume_size': 1,
                 'uuid': member.image.find_image(args.image).id,
                 'delete_on_termination': True},
                {'source_type': 'volume', 'destination_type': 'volume',
                 'uuid': data.id, 'delete_on_termination': False}],
            scheduler_hints=({'different_host': different_host}
                             if different_host else None))
        try:
            server = member.compute.wait_for_server(server, wait=args.timeout)
            check(server.status == 'ACTIVE',
                  'boot-from-volume server ACTIVE (root volume created '
                  'from the image)')
            attached = [a['id'] for a in server.attached_volumes]
            root = [v for v in attached if v != data.id]
            check(len(attached) == 2 and data.id in attached,
                  'root and data volume attached (%s)' % attached)
            for volume_id in attached:
                volume = member.block_storage.get_volume(volume_id)
                check(volume.status == 'in-use',
                      'volume %s in-use' % volume_id)
            check(member.block_storage.get_volume(root[0]).is_bootable,
                  'root volume %s bootable' % root[0])
        finally:
            member.compute.delete_server(server.id, ignore_missing=True)
            member.compute.wait_for_delete(server, wait=args.timeout)
        wait_for('root volume deleted with its server',
                 lambda: member.block_storage.find_volume(root[0]) is None,
                 args.timeout)
        check(True, 'root volume %s deleted with its server' % root[0])
        data = member.block_storage.wait_for_status(
            data, 'available', failures=['error'], wait=args.timeout)
        check(True, 'data volume %s available again' % data.id)
    finally:
        member.block_storage.delete_volume(data.id, ignore_missing=True)
        member.block_storage.wait_for_delete(data, wait=args.timeout)
    check(True, 'data volume deleted')


def main(argv=None):
    checks.setup_logging()
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--supervisorctl', required=True)
    parser.add_argument('--network', default='aio-member-net')
    parser.add_argument('--flavor', default='aio.nano')
    parser.add_argument('--image', default='aio-tiny')
    parser.add_argument('--timeout', type=int, default=120)
    parser.add_argument('--unknown-within', type=int, default=45)
    args = parser.parse_args(argv)

    admin = client.connect('aio-admin')
    servers = []
    volumes = None
    try:
        first, host1 = boot(args, admin, 'aio-smoke-1')
        servers.append(first)
        second, host2 = boot(args, admin, 'aio-smoke-2',
                             different_host=first)
        servers.append(second)
        check(host1 != host2, 'the two servers are on two hosts (%s, %s)'
              % (host1, host2))
        volumes = Beside(volume_smoke, client.connect('aio-member'), args,
                         different_host=first)

        check(host_status(admin, first) == 'UP',
              'host_status UP at 2.16 for admin')
        program = 'nova-compute-%s' % host1
        subprocess.check_call([args.supervisorctl, 'stop', program])
        try:
            start = time.time()
            wait_for('host_status UNKNOWN',
                     lambda: host_status(admin, first) == 'UNKNOWN',
                     args.unknown_within)
            check(True, 'host_status UNKNOWN %.0fs after %s stopped'
                  % (time.time() - start, program))
        finally:
            subprocess.check_call([args.supervisorctl, 'start', program])
        wait_for('host_status UP', lambda: host_status(admin, first) == 'UP',
                 args.unknown_within)
        check(True, 'host_status UP again after %s started' % program)
    finally:
        if servers:
            cli('aio-member', 'server', 'delete', '--wait', *servers,
                timeout=args.timeout, output=False)
        if volumes is not None:
            # Ended before the result, also when a check above failed
            # (check 5 has printed its own failure, if any).
            volumes.join()
    left = [p.id for s in servers for p in ports_of(admin, s)]
    check(not left, 'servers deleted, no port left behind (%s)' % left)
    volumes.raise_error()
    return 0


class Beside(threading.Thread):
    """``function(*args, **kwargs)`` in a thread, started at once.

    A failed check in it (SystemExit) or any error is kept and raised
    again by :meth:`raise_error`, in the main thread.  Not a daemon: a
    main thread that failed first still waits for its cleanup.
    """

    def __init__(self, function, *args, **kwargs):
        super(Beside, self).__init__(name=function.__name__)
        self.call = (function, args, kwargs)
        self.error = None
        self.start()

    def run(self):
        function, args, kwargs = self.call
        try:
            function(*args, **kwargs)
        except BaseException as exc:
            self.error = exc

    def raise_error(self):
        """Its error, raised again (once it has been joined)."""
        if self.error is not None:
            raise self.error
