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
"""Cell0 rebuild against what a real cloud does while a server waits.

Two rebuild requests of one buried server at once, a requested port deleted
while the server waited, an availability zone unpinned (2.104) before the
rebuild, and the instance action the rebuild leaves
(*Enable Rebuild for Instances in cell0*; interp-rebuild-claim,
interp-rebuild-network-validation, interp-requested-networks-sticky).
"""

import threading

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF

# Servers buried at once per round of the concurrency test, within the
# "4 servers at once per worker" the docs ask of a project's quota.
ROUND = 4
# Unpinning an availability zone (PUT /servers/{id}).
UNPIN_MICROVERSION = '2.104'


class Cell0RebuildRacesBase(cell0_base.Cell0Test):
    """What the race classes share; it has no test."""

    required_features = (features.cell0_rebuild,)


class Cell0RebuildRacesTest(Cell0RebuildRacesBase):
    """Concurrent rebuilds, and the instance action a rebuild leaves."""

    def _together(self, server_id):
        """Two rebuilds released together from a barrier; their outcomes."""
        barrier = threading.Barrier(2)
        outcomes = [None, None]

        def send(i):
            barrier.wait()
            outcomes[i] = self._rebuild_outcome(server_id)

        threads = [threading.Thread(target=send, args=(i,), daemon=True)
                   for i in (0, 1)]
        with self.at(self.rebuild_mv):
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(CONF.compute.build_timeout)
        return [o or (None, None, 'no answer') for o in outcomes]

    def _round(self, count, first):
        """Bury ``count`` servers, race two rebuilds of each; problems.

        The pairs race one after the other (no other request of the test
        is in flight at the API when a pair is released); the rebuilds
        they start, and then the deletes, proceed together.
        """
        trigger = self.novalidhost_trigger()
        servers = [self.boot(trigger.flavor['id'], networks='none')
                   for _ in range(count)]
        for server in servers:
            body = self.wait_status(server['id'], waiters.TERMINAL)
            self.assert_state(body, self.expected_buried(),
                              'after NoValidHost (at %s)' % self.view_mv)
        trigger.add_capacity()
        problems = []
        # (label, server): the label starts each problem of that attempt.
        attempts = [('attempt %d (server %s): ' % (n, server['id']), server)
                    for n, server in enumerate(servers, first)]
        for label, server in attempts:
            outcomes = self._together(server['id'])
            problems.extend(label + p for p in checks.judge_pair(outcomes))
        for label, server in attempts:
            try:
                body = self.wait_status(server['id'], 'ACTIVE')
            except Exception as e:
                problems.append(label + 'did not end ACTIVE: %s' % e)
                continue
            try:
                listed = [s for s in self.owner_servers.list_servers(
                    name='^%s$' % body['name'])['servers']
                    if s['id'] == server['id']]
            except Exception as e:
                problems.append(label + 'the owner cannot list it: %s' % e)
                continue
            if len(listed) != 1:
                problems.append(label + 'the owner lists it %d times'
                                % len(listed))
        deleting = []
        for label, server in attempts:
            try:
                self.owner_servers.delete_server(server['id'])
            except Exception as e:
                problems.append(label + 'cannot be deleted: %s' % e)
                continue
            deleting.append((label, server))
        for label, server in deleting:
            try:
                waiters.wait_for_server_deletion(self.admin_servers,
                                                 server['id'])
            except Exception as e:
                problems.append(label + 'not deleted: %s' % e)
                continue
            try:
                left = self.leftovers(server['id'])
            except Exception as e:
                left = ['cannot check what is left of it: %s' % e]
            problems.extend(label + p for p in left)
        return problems

    @decorators.attr(type='slow')
    @decorators.idempotent_id('05d9e704-36fc-44c6-b8e5-0db140b022b1')
    @markers.requirements('RB-19')
    def test_concurrent_rebuilds(self):
        """Two rebuilds of one buried server at once: one wins, one 409.

        Repeated [nova_conformance] concurrent_rebuild_attempts times (one
        attempt may not overlap); every server ends ACTIVE once, is listed
        once, is deleted and leaves nothing behind.
        """
        self.require_microversions(self.pending_mv, self.rebuild_mv)
        attempts = CONF.nova_conformance.concurrent_rebuild_attempts
        problems = []
        done = 0
        while done < attempts and not problems:   # a failed round decides
            count = min(ROUND, attempts - done)
            problems.extend(self._round(count, done + 1))
            done += count
        self.assertEqual([], problems,
                         'Concurrent cell0 rebuilds (%d attempts): %d '
                         'problem(s)' % (attempts, len(problems)))

    @decorators.idempotent_id('eae5c14d-30ef-4e34-af65-bbb2ea9f74e5')
    @markers.requirements('RB-22')
    def test_rebuild_recorded_as_instance_action(self):
        """The cell0 rebuild is a ``rebuild`` instance action of the server.

        Once the server is ACTIVE: its only action (the cell0 ``create``
        action goes with the hard-deleted cell0 record,
        interp-instance-actions), with the request id of the rebuild
        request and its caller's user, its events none failed, and the
        compute's events those of a build (nova's
        ``compute__do_build_and_run_instance``), not of a rebuild on the
        host.
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, networks='none')
        trigger.add_capacity()
        with self.at(self.rebuild_mv):
            response = self.owner_servers.rebuild_server(
                server['id'], CONF.compute.image_ref)
        request_id = response.response.get('x-openstack-request-id')
        self.wait_status(server['id'], 'ACTIVE')
        actions, events = self.instance_actions(server['id'], 'rebuild')
        problems = []
        seen = [(a['action'], a['request_id'], a.get('user_id'))
                for a in actions]
        wanted = [('rebuild', request_id,
                   self.os_primary.credentials.user_id)]
        if seen != wanted:
            problems.append('instance actions (action, request id, user) '
                            'of server %s after its cell0 rebuild: expected '
                            '%s (the rebuild request\'s id and caller), got '
                            '%s' % (server['id'], wanted, seen))
        names = sorted(e['event'] for e in events)
        failed = [e for e in events if e.get('result') == 'Error']
        if not events or failed:
            problems.append('events of the rebuild action: expected at '
                            'least one and none failed, got %s' % events)
        compute = [n for n in names if n.startswith('compute_')]
        if (not any('build_and_run_instance' in n for n in compute)
                or any('rebuild' in n for n in compute)):
            problems.append('events of the rebuild action: expected the '
                            "compute's build event "
                            '(compute__do_build_and_run_instance) and no '
                            'rebuild event of the compute, got %s' % names)
        self.assertEqual([], problems)


class Cell0RebuildPortsTest(Cell0RebuildRacesBase):
    """A requested port, fixed IP or security group gone while it waited."""

    required_features = (features.cell0_rebuild, features.networks)

    def _buried_with_own_port(self):
        """(trigger, server, port): buried with a port the owner created.

        The port is deleted at cleanup if it still exists.
        """
        network, _ = self.create_network()
        port = self.create_port(network['id'])
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           networks=[{'port': port['id']}])
        return trigger, server, port

    @decorators.attr(type='negative')
    @decorators.idempotent_id('e51b07b6-37c3-4ddc-89d7-3a9771ccbf57')
    @markers.requirements('RB-20')
    def test_rebuild_refused_for_deleted_port(self):
        """A requested port deleted while the server waited: a 4xx.

        The answer names the port; the server stays buried, unchanged, and
        can be deleted.
        """
        trigger, server, port = self._buried_with_own_port()
        ports = self.os_primary.ports_client
        ports.delete_port(port['id'])
        trigger.add_capacity()
        before = self.show(server['id'])
        outcome = None
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        self.assertTrue(
            code is not None and 400 <= code < 500 and port['id'] in detail,
            'Cell0 rebuild of server %s whose requested port %s was deleted: '
            'expected a 4xx naming the port, got %s' % (
                server['id'], port['id'], checks.describe_outcomes([outcome])))
        after = self.show(server['id'])
        self.assert_state(after, self.expected_buried(),
                          'after the refused rebuild')
        self.assertEqual([], checks.changed(before, after,
                                            'after the refused rebuild: '))
        self.assertIsNone(after.get('OS-EXT-SRV-ATTR:host'),
                          'Server %s after the refused rebuild: expected no '
                          'host (still buried), got %r' % (
                              server['id'],
                              after.get('OS-EXT-SRV-ATTR:host')))
        self.delete_leaving_nothing(server['id'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('f2d5117d-1c25-418c-86b9-5b902a3547ed')
    @markers.requirements('RB-20')
    def test_rebuild_refused_for_port_in_use(self):
        """A requested port another server took while this one waited.

        The rebuild is refused with a 4xx naming the port, the buried server
        stays as it was, and the other server keeps its port.
        """
        trigger, server, port = self._buried_with_own_port()
        ports = self.os_primary.ports_client
        other = self.create_server(
            client=self.owner_servers, cleanup=self,
            networks=[{'port': port['id']}])
        trigger.add_capacity()
        before = self.show(server['id'])
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        self.assertTrue(
            code is not None and 400 <= code < 500 and port['id'] in detail,
            'Cell0 rebuild of server %s whose requested port %s is bound to '
            'server %s: expected a 4xx naming the port, got %s' % (
                server['id'], port['id'], other['id'],
                checks.describe_outcomes([outcome])))
        after = self.show(server['id'])
        self.assert_state(after, self.expected_buried(),
                          'after the refused rebuild')
        self.assertEqual([], checks.changed(before, after,
                                            'after the refused rebuild: '))
        bound = ports.show_port(port['id'])['port']
        self.assertEqual(other['id'], bound['device_id'],
                         'Port %s after the refused rebuild of server %s: '
                         'expected it still bound to server %s' % (
                             port['id'], server['id'], other['id']))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('6c9a0300-ed70-413e-a8b4-d3061b1ca4dc')
    @markers.requirements('RB-36')
    def test_rebuild_refused_for_fixed_ip_taken(self):
        """A requested fixed IP taken while the server waited.

        Another port of the owner holds the address: the rebuild is refused
        with a 4xx naming it (the create API's 400, not a 500), the server
        stays buried; once the port is deleted, the same server rebuilds
        with that address.
        """
        network, subnet = self.create_network(small_pool=True)
        fixed_ip = subnet['cidr'].rsplit('.', 1)[0] + '.13'
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, networks=[
            {'uuid': network['id'], 'fixed_ip': fixed_ip}])
        ports = self.os_primary.ports_client
        holder = ports.create_port(
            network_id=network['id'],
            fixed_ips=[{'subnet_id': subnet['id'], 'ip_address': fixed_ip}],
            name=data_utils.rand_name(name=self.__class__.__name__ + '-ip',
                                      prefix=CONF.resource_name_prefix))
        holder = holder['port']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        ports.delete_port, holder['id'])
        trigger.add_capacity()
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        self.assertTrue(
            code is not None and 400 <= code < 500 and fixed_ip in detail,
            'Cell0 rebuild of server %s whose requested fixed IP %s is held '
            'by port %s: expected a 4xx naming the address, got %s' % (
                server['id'], fixed_ip, holder['id'],
                checks.describe_outcomes([outcome])))
        after = self.show(server['id'])
        self.assert_state(after, self.expected_buried(),
                          'after the refused rebuild')
        ports.delete_port(holder['id'])
        body = self.rebuild_to_active(server['id'])
        addresses = checks.addresses_of(body)
        self.assertEqual([fixed_ip], addresses,
                         'Server %s rebuilt once its fixed IP was free: '
                         'expected only that address' % server['id'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('8fac7173-fa5f-404c-b2a4-3bd41a6dc90b')
    @markers.requirements('RB-38')
    def test_rebuild_refused_for_deleted_security_group(self):
        """A requested security group deleted while the server waited.

        The server is created with a group of the owner's, by name; the
        group is deleted while the server is buried.  The rebuild answers
        a 4xx naming the group (the create API's 400, not a build that
        fails in a cell); the server stays buried and can be deleted.
        """
        groups = self.os_primary.security_groups_client
        group = self.create_security_group()
        name = group['name']
        network, _ = self.create_network()
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           networks=[{'uuid': network['id']}],
                           security_groups=[{'name': name}])
        groups.delete_security_group(group['id'])
        trigger.add_capacity()
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        self.assertTrue(
            code is not None and 400 <= code < 500 and (
                group['id'] in detail or name in detail),
            'Cell0 rebuild of server %s whose security group %s (%s) was '
            'deleted: expected a 4xx naming the group, got %s' % (
                server['id'], name, group['id'],
                checks.describe_outcomes([outcome])))
        self.assert_state(self.show(server['id']), self.expected_buried(),
                          'after the refused rebuild')
        self.delete_leaving_nothing(server['id'])


class Cell0RebuildUnpinTest(Cell0RebuildRacesBase):
    """An availability zone unpinned (2.104) before the rebuild."""

    min_microversion = UNPIN_MICROVERSION
    required_features = (features.cell0_rebuild, features.networks)

    @decorators.idempotent_id('b6c822b5-5da5-44fe-ab2b-6484b43a1c73')
    @markers.requirements('RB-21')
    def test_unpin_availability_zone_then_rebuild_keeps_networks(self):
        """Unpinning the zone (2.104) of a buried server keeps its networks.

        The owner has two networks and asked for the second, so a rebuild
        that lost the request cannot pass by picking the only network.
        """
        self.create_network()
        network, _ = self.create_network()
        zones = [z['zoneName'] for z in
                 self.os_primary.availability_zone_client
                 .list_availability_zones()['availabilityZoneInfo']
                 if z.get('zoneState', {}).get('available')]
        if not zones:
            self.fail('No available availability zone to pin a server to')
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           availability_zone=zones[0],
                           networks=[{'uuid': network['id']}])
        with self.at(UNPIN_MICROVERSION):
            self.owner_servers.update_server(server['id'],
                                             pinned_availability_zone=None)
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        ports = self.os_admin.ports_client.list_ports(
            device_id=server['id'])['ports']
        self.assertEqual(
            [network['id']], [p['network_id'] for p in ports],
            'Networks of the ports of server %s rebuilt after unpinning its '
            'zone: expected only the requested network' % server['id'])
