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
"""After a conformance run: the embedded cloud is exactly as seeded.

``python -m pending_aio check-clean``, with the tools venv's python
(openstacksdk) and OS_CLIENT_CONFIG_FILE pointing at .aio/clouds.yaml.
Checks, as admin:

- every nova-compute is enabled, up and not forced down (disruptive tests
  restored what they touched);
- no server in any project, no port bound to a server, no volume,
  volume snapshot or backup in any project;
- no flavor, project, network or CUSTOM_ trait besides the seeded ones, and
  no router.

Prints every leftover and exits 1 if there is any.

``python -m pending_aio check-trait-writes OFFSET``: the trait writes
Tempest made (``PUT /resource_providers/{uuid}/traits`` in placement's
access log from byte OFFSET on) went only to the providers of the hosts
the cloud claims in ``capacity_hosts``, and there were some.
"""

import collections
import os
import re

import yaml

from pending_aio.cloud import client

SEED_FLAVORS = {'aio.nano', 'aio.micro'}
SEED_PROJECTS = {'admin', 'service', 'aio-member'}
SEED_NETWORKS = {'aio-member-net', 'aio-external'}


def main(argv=None):
    conn = client.connect('aio-admin')
    problems = []
    for svc in conn.compute.services(binary='nova-compute'):
        if (svc.status, svc.state, bool(svc.is_forced_down)) != (
                'enabled', 'up', False):
            problems.append('nova-compute on %s: status %s, state %s, '
                            'forced_down %s' % (svc.host, svc.status,
                                                svc.state, svc.is_forced_down))
    for server in conn.compute.servers(all_projects=True):
        problems.append('server %s (%s) of project %s, %s' % (
            server.id, server.name, server.project_id, server.status))
    for port in conn.network.ports():
        if (port.device_owner or '').startswith('compute:'):
            problems.append('port %s bound to server %s' % (port.id,
                                                            port.device_id))
    for volume in conn.block_storage.volumes(all_projects=True):
        problems.append('volume %s (%s) of project %s, %s' % (
            volume.id, volume.name, volume.project_id, volume.status))
    for snapshot in conn.block_storage.snapshots(all_projects=True):
        problems.append('volume snapshot %s of volume %s, %s' % (
            snapshot.id, snapshot.volume_id, snapshot.status))
    for backup in conn.block_storage.backups(all_projects=True):
        problems.append('volume backup %s of volume %s, %s' % (
            backup.id, backup.volume_id, backup.status))
    for flavor in conn.compute.flavors(is_public=None):
        if flavor.name not in SEED_FLAVORS:
            problems.append('flavor %s (%s)' % (flavor.id, flavor.name))
    for project in conn.identity.projects():
        if project.name not in SEED_PROJECTS:
            problems.append('project %s (%s)' % (project.id, project.name))
    for network in conn.network.networks():
        if network.name not in SEED_NETWORKS:
            problems.append('network %s (%s)' % (network.id, network.name))
    # A project's auto-allocated topology (networks "auto") has a router.
    for router in conn.network.routers():
        problems.append('router %s (%s) of project %s' % (
            router.id, router.name, router.project_id))
    traits = conn.placement.get(
        '/traits?name=startswith:CUSTOM_',
        microversion='1.6').json()['traits']
    for trait in traits:
        problems.append('trait %s' % trait)
    for problem in problems:
        print('leftover: %s' % problem)
    print('clean: %s' % ('no' if problems else 'yes'))
    return 1 if problems else 0


# placement's access log: a trait write and its user agent (Tempest's
# clients are urllib3's; nova-compute names itself).
TRAIT_WRITE = re.compile(r'"PUT /resource_providers/([0-9a-f-]+)/traits '
                         r'HTTP/[0-9.]+" (\d+) .* "([^"]*)"$')


def trait_writes(lines):
    """{provider uuid: count} of Tempest's trait writes among ``lines``."""
    writes = collections.Counter()
    for line in lines:
        match = TRAIT_WRITE.search(line.rstrip('\n'))
        if match and match.group(3).startswith('python-urllib3'):
            writes[match.group(1)] += 1
    return writes


def check_trait_writes(argv):
    aio = os.environ['AIO_DIR']
    with open(os.path.join(aio, 'claims.yaml')) as f:
        allowed = str(yaml.safe_load(f).get('capacity_hosts') or '')
    allowed = [h.strip() for h in allowed.split(',') if h.strip()]
    with open(os.path.join(aio, 'logs', 'placement.log')) as f:
        f.seek(int(argv[0]))
        writes = trait_writes(f)
    conn = client.connect('aio-admin')
    hosts = {h.id: h.service_details['host']
             for h in conn.compute.hypervisors(details=True)}
    problems = ['%d trait writes to the provider of %s (%s), not one of '
                'capacity_hosts %s' % (n, hosts.get(uuid, '?'), uuid,
                                       allowed)
                for uuid, n in sorted(writes.items())
                if hosts.get(uuid) not in allowed]
    if not writes:
        problems.append('no trait write by Tempest in the log: the check '
                        'saw nothing')
    for uuid, n in sorted(writes.items()):
        print('trait writes: %d to %s (%s)'
              % (n, hosts.get(uuid, '?'), uuid))
    for problem in problems:
        print('problem: %s' % problem)
    return 1 if problems else 0
