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

Run with the tools venv's python (openstacksdk) and OS_CLIENT_CONFIG_FILE
pointing at .aio/clouds.yaml:

1. the member boots a server on its own network: ACTIVE, its port bound by
   ML2/OVN (binding:vif_type ovs) on a compute host;
2. a second one, with a different_host hint, lands on the other compute
   host, bound there too;
3. admin at microversion 2.16 reads host_status UP; after the supervisor
   stops that server's nova-compute it reads UNKNOWN within the bound; after
   start, UP again;
4. both servers are deleted and their ports are gone;
5. the member boots from a volume Cinder makes from the image, with a
   blank data volume as a second disk: ACTIVE, both volumes in-use;
   deleting the server deletes the root volume (delete_on_termination) and
   returns the data volume to available.

Prints one line per check and exits non-zero at the first failure.
"""

import argparse
import subprocess
import sys
import time

import openstack


def check(ok, message):
    print('%s: %s' % ('ok' if ok else 'FAIL', message), flush=True)
    if not ok:
        sys.exit(1)


def wait_for(what, predicate, timeout, interval=1.0):
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() > deadline:
            check(False, 'timed out after %ds waiting for %s'
                  % (timeout, what))
        time.sleep(interval)


def host_status(admin, server_id):
    body = admin.compute.get('/servers/%s' % server_id,
                             microversion='2.16').json()['server']
    return body.get('host_status')


def boot(member, admin, name, args, hints=None):
    net = member.network.find_network(args.network)
    check(net is not None, 'member network %s exists' % args.network)
    server = member.compute.create_server(
        name=name, flavor_id=member.compute.find_flavor(args.flavor).id,
        image_id=member.image.find_image(args.image).id,
        networks=[{'uuid': net.id}], scheduler_hints=hints or {})
    server = member.compute.wait_for_server(server, wait=args.timeout)
    check(server.status == 'ACTIVE', '%s ACTIVE' % name)
    host = admin.compute.get_server(server.id).compute_host
    ports = list(admin.network.ports(device_id=server.id))
    check(len(ports) == 1, '%s has one port' % name)
    port = ports[0]
    check(port.binding_vif_type == 'ovs' and port.binding_host_id == host,
          '%s port %s bound by OVN on %s (vif_type=%s, host=%s)'
          % (name, port.id, host, port.binding_vif_type,
             port.binding_host_id))
    return server, host


def volume_smoke(member, args):
    """Boot from a volume made from the image, with a blank data volume.

    Deleting the server deletes the root volume (delete_on_termination)
    and returns the data volume to available; the data volume is then
    deleted too.
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
                 'uuid': data.id, 'delete_on_termination': False}])
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--supervisorctl', required=True)
    parser.add_argument('--network', default='aio-member-net')
    parser.add_argument('--flavor', default='aio.nano')
    parser.add_argument('--image', default='aio-tiny')
    parser.add_argument('--timeout', type=int, default=120)
    parser.add_argument('--unknown-within', type=int, default=45)
    args = parser.parse_args()

    member = openstack.connect(cloud='aio-member')
    admin = openstack.connect(cloud='aio-admin')
    servers = []
    try:
        first, host1 = boot(member, admin, 'aio-smoke-1', args)
        servers.append(first)
        second, host2 = boot(member, admin, 'aio-smoke-2', args,
                             hints={'different_host': [first.id]})
        servers.append(second)
        check(host1 != host2, 'the two servers are on two hosts (%s, %s)'
              % (host1, host2))

        check(host_status(admin, first.id) == 'UP',
              'host_status UP at 2.16 for admin')
        program = 'nova-compute-%s' % host1
        subprocess.check_call([args.supervisorctl, 'stop', program])
        try:
            start = time.time()
            wait_for('host_status UNKNOWN',
                     lambda: host_status(admin, first.id) == 'UNKNOWN',
                     args.unknown_within)
            check(True, 'host_status UNKNOWN %.0fs after %s stopped'
                  % (time.time() - start, program))
        finally:
            subprocess.check_call([args.supervisorctl, 'start', program])
        wait_for('host_status UP',
                 lambda: host_status(admin, first.id) == 'UP',
                 args.unknown_within)
        check(True, 'host_status UP again after %s started' % program)
    finally:
        for server in servers:
            member.compute.delete_server(server.id, ignore_missing=True)
        for server in servers:
            member.compute.wait_for_delete(server, wait=args.timeout)
    left = [p.id for s in servers for p in admin.network.ports(
        device_id=s.id)]
    check(not left, 'servers deleted, no port left behind')

    volume_smoke(member, args)


if __name__ == '__main__':
    main()
