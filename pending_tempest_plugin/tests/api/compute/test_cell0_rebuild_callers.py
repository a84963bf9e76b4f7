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
"""Cell0 rebuilds requested by someone other than the server's owner.

The spec: *Enable Rebuild for Instances in cell0*, whose use case is an
operator's service rebuilding its users' buried servers.  The caller here
is Tempest's admin, whose project is not the owner's and has two networks
of its own: a cloud that validates the server's networks, or counts its
quota, in the caller's project instead of the owner's answers 409
("Multiple possible networks") for networks "auto", or refuses a server
its owner has room for.  Interpretation cited: interpretation.rst anchor
``interp-rebuild-caller``.
"""

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests.api.compute import test_cell0_rebuild

CONF = config.CONF


class Cell0RebuildCallerBase(test_cell0_rebuild.Cell0RebuildBase):
    """The caller: an admin of a project with two networks of its own."""

    @classmethod
    def setup_clients(cls):
        super(Cell0RebuildCallerBase, cls).setup_clients()
        cls.caller_servers = cls.os_admin.servers_client
        cls.caller_project_id = cls.os_admin.credentials.project_id

    @classmethod
    def resource_setup(cls):
        super(Cell0RebuildCallerBase, cls).resource_setup()
        if cls.caller_project_id == cls.owner_project_id:
            raise RuntimeError(
                'The admin credentials are in the owner\'s project (%s): the '
                'tests of another caller need an admin of another project'
                % cls.owner_project_id)
        if not features.networks():
            cls.caller_networks = [cls._create_caller_network(n)
                                   for n in (1, 2)]

    @classmethod
    def _create_caller_network(cls, n):
        """A network and subnet of the caller's (the admin's) project."""
        name = data_utils.rand_name(
            name='%s-caller-net%d' % (cls.__name__, n),
            prefix=CONF.resource_name_prefix)
        nets = cls.os_admin.networks_client
        network = nets.create_network(
            name=name, project_id=cls.caller_project_id)['network']
        cls.addClassResourceCleanup(
            test_utils.call_and_ignore_notfound_exc, nets.delete_network,
            network['id'])
        prefix = '10.%d.%d.' % (data_utils.rand_int_id(1, 250),
                                data_utils.rand_int_id(1, 250))
        cls.os_admin.subnets_client.create_subnet(
            network_id=network['id'], name=name, ip_version=4,
            cidr=prefix + '0/28', project_id=cls.caller_project_id)
        return network

    def port_problems(self, server_id, nets, when):
        """How the server's ports differ from ``nets``, all the owner's."""
        ports = self.os_admin.ports_client.list_ports(
            device_id=server_id)['ports']
        problems = []
        got = sorted(p['network_id'] for p in ports)
        if got != sorted(nets):
            problems.append('%snetworks of the ports of server %s: expected '
                            '%s (the owner\'s), got %s' % (
                                when, server_id, sorted(nets), got))
        foreign = sorted(p['id'] for p in ports
                         if p['project_id'] != self.owner_project_id)
        if foreign:
            problems.append('%sports of server %s not in the owner\'s '
                            'project %s: %s' % (when, server_id,
                                                self.owner_project_id,
                                                foreign))
        return problems


class Cell0RebuildOtherCallerTest(Cell0RebuildCallerBase):
    """A network id, a port, a fixed IP, none; quota for the owner."""

    required_features = (features.cell0_rebuild, features.networks)

    @decorators.idempotent_id('5ec72ac0-a81d-4904-ba25-531802bb4e8d')
    @markers.requirements('RB-34', 'RB-35')
    def test_rebuild_by_admin_of_another_project(self):
        """Each networks form, rebuilt by the caller: the owner's networks.

        A server with a pre-created port, a fixed IP and a network by ID
        (``_requested_nics``, all the owner's) and a server with networks
        "none" are buried and rebuilt by the caller: ACTIVE with the same
        ID, the requested port bound, the fixed IP kept, every port on the
        owner's networks and in the owner's project; none for "none".
        """
        networks, expect = self._requested_nics()
        trigger = self.novalidhost_trigger()
        nics = self.bury(trigger, version=self.rebuild_mv, networks=networks)
        none = self.bury(trigger, version=self.rebuild_mv, networks='none')
        trigger.add_capacity()
        when = 'after the cell0 rebuild by an admin of another project: '
        for server in (nics, none):
            self.rebuild_to_active(server['id'], client=self.caller_servers)
            self._check_rebuilt(server['id'])
        problems = self._network_problems(nics['id'], expect, when)
        problems.extend(self.port_problems(nics['id'], expect['nets'], when))
        problems.extend(self.port_problems(none['id'], [], when))
        self.assertEqual([], problems)

    @decorators.idempotent_id('692d293a-837b-4a68-a697-2821b8daf7cd')
    @markers.requirements('RB-35')
    def test_quota_counted_for_the_owner(self):
        """The owner's quota decides, not the caller's.

        In the cloud's own quota counting mode, with real limits (not 0):
        with the owner's cores quota one core short of the server (its
        other servers counted before the burial) and the caller's project
        room for exactly the server, the caller's rebuild is refused (the
        server stays buried: ERROR, no host); with the owner's quota back
        and the caller's project one core short, it is accepted and the
        server ends ACTIVE.  After each, the caller's project uses what
        it used before, and the server's placement allocations are none
        (refused) or its flavor on its node, for the owner's project and
        user (built).
        """
        owner_used = self.others_usage('cores')
        trigger, server = self._buried()
        vcpus = self.need(server['id'], 'cores')
        caller_used = self.usage('cores',
                                 project_id=self.caller_project_id)[1]
        restore = self.set_quota(cores=owner_used + vcpus - 1)
        restore_caller = self.set_quota(project_id=self.caller_project_id,
                                        cores=caller_used + vcpus)
        trigger.add_capacity()
        response = self.rebuild(server['id'], client=self.caller_servers)
        self.assertEqual(server['id'], response['id'])
        body = self.wait_status(server['id'], waiters.TERMINAL | {'ACTIVE'})
        problems = []
        if body.get('OS-EXT-SRV-ATTR:host') or body['status'] != 'ERROR':
            problems.append(
                "the owner's cores quota is one core short and the caller's "
                'project has room: expected the rebuild refused (ERROR, no '
                "host), got %s on host %r (quota counted for the caller's "
                'project?)' % (
                    waiters.describe(body),
                    body.get('OS-EXT-SRV-ATTR:host')))
        refused = 'refused by the owner\'s quota: '
        problems.extend(self.allocation_problems(server['id'], refused))
        problems.extend(self._caller_usage_problems(caller_used, refused))
        restore()
        restore_caller()
        self.set_quota(project_id=self.caller_project_id,
                       cores=caller_used + vcpus - 1)
        self.rebuild(server['id'], client=self.caller_servers)
        body = self.wait_status(server['id'], waiters.TERMINAL | {'ACTIVE'})
        if body['status'] != 'ACTIVE':
            problems.append(
                "the caller's project is one core short and the owner has "
                'room: expected the rebuild accepted (ACTIVE), got %s (quota '
                "counted for the caller's project?)" % waiters.describe(body))
        else:
            built = "rebuilt by the caller: "
            problems.extend(self.allocation_problems(server['id'], built))
            problems.extend(self._caller_usage_problems(caller_used, built))
        self.assertEqual([], problems)

    def _caller_usage_problems(self, caller_used, when):
        """The caller's project counts nothing of the owner's server."""
        used = self.usage('cores', project_id=self.caller_project_id)[1]
        if used != caller_used:
            return ["%sthe caller's project uses %d cores, %d before the "
                    "rebuild: expected no change (the server is the "
                    "owner's)" % (when, used, caller_used)]
        return []


class Cell0RebuildOtherCallerAutoNetworkTest(Cell0RebuildCallerBase):
    """Networks "auto" of an owner without networks, another caller.

    The caller's project has two networks: validated there, "auto" is
    ambiguous (409); validated in the owner's project, Neutron allocates
    the owner a network of its own.
    """

    required_features = (features.cell0_rebuild,
                         features.auto_allocated_network)
    class_network = False

    @decorators.idempotent_id('9981f930-8dc0-489c-aa9d-26add649ad1d')
    @markers.requirements('RB-34')
    def test_rebuild_auto_network_by_admin_of_another_project(self):
        """ACTIVE, same ID, one port on the owner's auto-allocated network."""
        body, auto_net = self._rebuilt_auto_network_server(
            client=self.caller_servers)
        problems = self.port_problems(
            body['id'], [auto_net], 'networks "auto", after the cell0 '
            'rebuild by an admin of another project: ')
        if not checks.addresses_of(body):
            problems.append('no address after the cell0 rebuild')
        self.assertEqual([], problems)
