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
"""host_status in a listing of several servers (GET /servers/detail).

The other host_status tests list one server at a time (a name filter), so
a cloud that computes host_status right for the first server of a listing
and wrong for the others, or gives a server the state of another server's
host, passes them.  Here one class-level set of servers of owner_member
serves every persona: servers on two compute hosts (cold-migrated there if
the scheduler put them all on one) and, with a NoValidHost trigger, one
server without a host.  Each persona lists them all, sorted both ways,
filtered and paged, and each server must carry its own host's status (or
none, as the policy profile says).

``test_detail_listing_hosts_in_different_states`` disables the compute of
one of the two hosts (one of ``[nova_conformance] disruptive_hosts``) and
``HostStatusListingStoppedComputeTest`` stops it, each in a class of its
own that needs it configured.  Those two classes are ``serial`` like the
disruptive classes, and the compute is enabled or started again at
cleanup.  The class that lists healthy hosts is not: Tempest's serial
lock already keeps it out while a serial class has a compute changed, and
moving its own servers between hosts disturbs no other test.

Every test that needs a stopped compute is in
``HostStatusListingStoppedComputeTest``: a stop costs nova's
``service_down_time`` and a start a service start, so the suite stops a
compute once (see the decisions page of the docs).  With fewer than two
computes that class keeps its single-server tests (one server on a
disruptive host) and skips its listing test.
"""

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.common import spread
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import base

CONF = config.CONF

HOSTED_SERVERS = 3
HOST_STATUS_MICROVERSION = '2.16'
SERVICES_MICROVERSION = '2.53'
TWO_HOSTS = ('Servers on several hosts: set [compute] min_compute_nodes to 2 '
             'or more if the cloud has that many computes.')


class HostStatusListingBase(base.ConformanceTest):
    """Servers of the owner on two hosts; it has no test."""

    min_microversion = HOST_STATUS_MICROVERSION
    # False in a class whose tests other than the listing ones run on one
    # host: with fewer than two computes its servers are one server on a
    # disruptive host, and its listing tests skip (``need_two_hosts``).
    two_hosts_required = True

    @staticmethod
    def two_hosts():
        return CONF.compute.min_compute_nodes >= 2

    def need_two_hosts(self):
        if not self.two_hosts():
            self.skipTest(TWO_HOSTS)

    @classmethod
    def skip_checks(cls):
        super(HostStatusListingBase, cls).skip_checks()
        if cls.two_hosts_required and not cls.two_hosts():
            raise cls.skipException(TWO_HOSTS)

    @classmethod
    def resource_setup(cls):
        super(HostStatusListingBase, cls).resource_setup()
        cls.stem = data_utils.rand_name(name=cls.__name__,
                                        prefix=CONF.resource_name_prefix)
        cls.no_host = None
        # Servers an admin put in ERROR (on their host): not ACTIVE.
        cls.errored = set()
        if not cls.two_hosts():
            cls.one_host()
            return
        cls.servers = cls.spread_servers()
        # server id -> its host (None for the server without one).
        cls.placed = cls.place(cls.servers)
        if not features.novalidhost():
            trigger = novalidhost.NoValidHostTrigger(
                base._ClassCleanups(cls), cls.os_admin.flavors_client,
                cls.os_admin.placement_client,
                cls.os_admin.resource_providers_client)
            flavor = trigger.create_flavor(cls.owner_project_id)
            cls.no_host = cls.create_server(
                name='%s-no-host' % cls.stem, flavor=flavor['id'],
                wait_for=waiters.TERMINAL)
            cls.servers.append(cls.no_host)
            cls.placed[cls.no_host['id']] = None

    @classmethod
    def spread_servers(cls):
        """The owner's HOSTED_SERVERS servers, ACTIVE, on two hosts.

        Where the scheduler honours the different_host hint, the second
        server asks for a host other than the first's (booted first): no
        server has to be moved afterwards, which matters where the hosts
        are in different cells (nova migrates no server between cells by
        default).  Otherwise ``place`` moves them (cold migration).
        """
        hint = features.host_hint_filters() is None
        created = []
        for i in range(HOSTED_SERVERS):
            kwargs = {}
            if hint and i == 1:
                waiters.wait_for_server_status(
                    cls.admin_servers, created[0]['id'], 'ACTIVE')
                kwargs['scheduler_hints'] = {
                    'different_host': [created[0]['id']]}
            created.append(cls.create_server(
                name='%s-%d' % (cls.stem, i), wait_for=None, **kwargs))
        return [waiters.wait_for_server_status(
            cls.admin_servers, s['id'], 'ACTIVE') for s in created]

    @classmethod
    def one_host(cls):
        """One server, on a disruptive host (``cls.target``)."""
        server, host = cls.server_on_disruptive_host(name='%s-0' % cls.stem)
        cls.servers, cls.target = [server], host
        cls.placed = {server['id']: host}

    @classmethod
    def place(cls, servers):
        """Leave servers on two hosts; return server id -> host.

        ``cls.target`` becomes the host the disruptive test disables.
        """
        hosts_of = dict((s['id'], cls.host_of(s['id'])) for s in servers)
        with microversions.compute(SERVICES_MICROVERSION):
            services = cls.os_admin.services_client.list_services(
                binary='nova-compute')['services']
        computes = sorted(s['host'] for s in services
                          if s['status'] == 'enabled' and s['state'] == 'up'
                          and not s.get('forced_down'))
        allowed = None
        if CONF.nova_conformance.disruptive_tests:
            allowed = CONF.nova_conformance.disruptive_hosts
        try:
            cls.target, moves = spread.spread_plan(hosts_of, computes,
                                                   allowed)
        except ValueError as e:
            raise lib_exc.InvalidConfiguration(
                '%s ([compute] min_compute_nodes = %d)'
                % (e, CONF.compute.min_compute_nodes))
        for server_id, host in moves:
            hosts_of[server_id] = cls.move_to(
                server_id, host,
                'the scheduler put the servers on %s only, the test needs '
                'them on two hosts' % ', '.join(sorted(set(
                    hosts_of.values()))))
        return hosts_of

    # -- listings -------------------------------------------------------

    def listings(self, persona, servers):
        """(label, {server id: detail entry}, ids it must list) per listing.

        Each listing the persona gets at 2.16 of the class's servers: both
        sort directions, a status filter, pages of two servers and, for
        admin, a host filter; through ``servers`` ({persona: servers
        client} of one profile's endpoint).
        """
        name = {'name': '^%s-' % self.stem}
        if persona == 'admin':
            name['all_tenants'] = True
        every = set(s['id'] for s in self.servers)
        hosted = set(i for i in every if self.placed[i]) - self.errored
        variants = [
            ('sorted by creation, newest first',
             dict(sort_key='created_at', sort_dir='desc'), every),
            ('sorted by creation, oldest first',
             dict(sort_key='created_at', sort_dir='asc'), every),
            ('status=ACTIVE', dict(status='ACTIVE'), hosted),
            ('pages of 2 (limit, marker)', dict(limit=2), every),
        ]
        if persona == 'admin':
            variants.append((
                'host=%s' % self.target, dict(host=self.target),
                set(i for i in every if self.placed[i] == self.target)))
        found = []
        for label, params, expected in variants:
            params.update(name)
            found.append(('GET servers/detail %s at %s' % (
                label, HOST_STATUS_MICROVERSION),
                self.list_all(servers[persona], params), expected))
        return found

    def list_all(self, client, params):
        """{id: entry} of a detail listing, following every page."""
        listed = {}
        params = dict(params)
        with self.at(HOST_STATUS_MICROVERSION):
            while True:
                page = client.list_servers(detail=True, **params)['servers']
                listed.update((s['id'], s) for s in page)
                if 'limit' not in params or len(page) < params['limit']:
                    return listed
                params['marker'] = page[-1]['id']

    def check_listings(self, states):
        """Every persona's listings show each server its own host's state.

        :param states: host -> the host_status its compute reads now.
        """
        problems = []
        for profile, servers in self.profile_servers:
            for persona in self.personas():
                for where, listed, expected in self.listings(persona,
                                                             servers):
                    where = self.where(where, profile)
                    for server in self.servers:
                        if server['id'] not in expected:
                            continue
                        host = self.placed[server['id']]
                        body = listed.get(server['id'])
                        problems.extend(
                            '%s: server %s on %s' % (p, server['name'],
                                                     host or 'no host')
                            for p in self.visibility_problems(
                                persona, states.get(host, ''), body, where,
                                profile))
        self.fail_visibility(problems)


class HostStatusListingTest(HostStatusListingBase):
    """Listings while both hosts are healthy.

    One of its hosted servers is put in ERROR by an admin (os-resetState):
    a server in ERROR on a host carries that host's host_status, listed
    with the ACTIVE ones and the buried one (PENDING, or ERROR with
    use_pending_state off).
    """

    @classmethod
    def resource_setup(cls):
        super(HostStatusListingTest, cls).resource_setup()
        errored = cls.servers[-1 if cls.no_host is None else -2]
        cls.admin_servers.reset_state(errored['id'], state='error')
        waiters.wait_for_server_status(cls.admin_servers, errored['id'],
                                       'ERROR')
        cls.errored.add(errored['id'])

    @decorators.idempotent_id('23881427-a4c3-4d6c-bb54-74d52398f71a')
    @markers.requirements('HS-21', 'HS-02', 'HS-04', 'HS-14', 'HS-15',
                          'HS-16', 'HS-17', 'HS-25')
    def test_detail_listing_of_several_servers(self):
        """Every server of a listing has its own host_status: UP or "".

        Servers on two healthy computes (one of them put in ERROR) and,
        with a NoValidHost trigger, one without a host, in each listing of
        each persona.  On a cloud
        that claims hosts in two cells or more (``[nova_conformance]
        compute_host_cells``), the two hosts must be in two cells (nova
        reads each server's services in its own cell's database).
        """
        hosts = sorted(set(h for h in self.placed.values() if h))
        if len(features.claimed_cells()) > 1:
            claimed = CONF.nova_conformance.compute_host_cells
            cells = dict((h, claimed.get(h)) for h in hosts)
            self.assertGreaterEqual(
                len(set(c for c in cells.values() if c)), 2,
                'The class\'s servers are on hosts %s, whose claimed cells '
                'are %s: on a cloud of several cells the listing must hold '
                'servers of two cells' % (hosts, cells))
        self.check_listings(dict((h, 'UP') for h in hosts))


@decorators.serial
class HostStatusListingDisruptiveTest(HostStatusListingBase):
    """Listings while the compute of one host is disabled."""

    required_features = (features.disruptive,)

    @decorators.attr(type='slow')
    @decorators.idempotent_id('d2527ec6-cabd-47e3-a659-ec9b6509c926')
    @markers.requirements('HS-20', 'HS-08', 'HS-04', 'HS-14', 'HS-15',
                          'HS-16', 'HS-17')
    def test_detail_listing_hosts_in_different_states(self):
        """One host MAINTENANCE, the other UP: no server gets the other's.

        The compute of ``target`` (one of ``[nova_conformance]
        disruptive_hosts``) is disabled for the listings only.
        """
        hosts = self.host_control()
        hosts.disable(self.target)
        states = dict((h, 'UP') for h in self.placed.values() if h)
        states[self.target] = 'MAINTENANCE'
        self.check_listings(states)


@decorators.serial
class HostStatusListingStoppedComputeTest(HostStatusListingBase):
    """A compute stopped: alone, disabled or forced down too; listings.

    Stopping a compute and waiting until nova reads it down takes nova's
    ``service_down_time``, and starting it again takes a service start:
    the class stops the compute of ``target`` once, before its first
    test, and starts it at class cleanup.  Each test adds only the
    os-services change it needs and puts that back.  ``server`` is one of
    the class's servers on ``target``.
    """

    required_features = (features.stopped_compute,)
    two_hosts_required = False

    @classmethod
    def resource_setup(cls):
        super(HostStatusListingStoppedComputeTest, cls).resource_setup()
        cls.server = [s for s in cls.servers
                      if cls.placed[s['id']] == cls.target][0]
        cls.class_host_control().stop(cls.target)

    def setUp(self):
        super(HostStatusListingStoppedComputeTest, self).setUp()
        self.hosts = self.host_control()

    @decorators.attr(type='slow')
    @decorators.idempotent_id('e7a70ce0-c1fd-452c-8a76-224998b68508')
    @markers.requirements('HS-06', 'HS-04', 'HS-14', 'HS-15', 'HS-16',
                          'HS-17')
    def test_unknown(self):
        """A compute that stopped reporting reads UNKNOWN.

        Under the unknown_only profile this is the one value the owner
        sees.
        """
        self.check_visibility(self.server, 'UNKNOWN')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('3f189f76-2780-40bc-8daa-57516705c6c9')
    @markers.requirements('HS-24')
    def test_unknown_update_response(self):
        """The 2.75 update response of a server whose compute stopped."""
        self.require_update_response()
        self.check_update_response(self.server, 'UNKNOWN')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('f32003e8-af8a-4ae0-9245-b8b192b2e2fa')
    @markers.requirements('HS-11')
    def test_disabled_and_stopped(self):
        """MAINTENANCE over UNKNOWN, for every persona, show and detail."""
        self.hosts.disable(self.target)
        self.check_visibility(self.server, 'MAINTENANCE')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('3492a9b2-82bd-4f91-9844-01a1e8c5a995')
    @markers.requirements('HS-12')
    def test_forced_down_and_stopped(self):
        """DOWN overrides UNKNOWN, for every persona, show and detail."""
        self.hosts.force_down(self.target)
        self.check_visibility(self.server, 'DOWN')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('b1c8b80f-e73e-4c95-a08d-5dfd3182a359')
    @markers.requirements('HS-22', 'HS-06', 'HS-04', 'HS-14', 'HS-15',
                          'HS-16', 'HS-17')
    def test_detail_listing_host_unknown(self):
        """One host UNKNOWN (compute stopped), the other UP.

        Under the unknown_only profile the owner must see UNKNOWN on the
        servers of the stopped compute and nothing on the others: the
        per-server part of the profile, which a listing of one server
        cannot check.
        """
        self.need_two_hosts()
        states = dict((h, 'UP') for h in self.placed.values() if h)
        states[self.target] = 'UNKNOWN'
        self.check_listings(states)
