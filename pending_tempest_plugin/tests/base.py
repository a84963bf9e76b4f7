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
"""The base class of every conformance test.

Built on Tempest's stable interfaces only (``tempest.test``,
``tempest.lib``, ``tempest.config``): no import from ``tempest.api`` or
``tempest.common``.

Personas (no network resources: the servers of the host_status tests boot
with ``networks: none``):

============== ======================= ===================================
persona        Tempest credentials     who
============== ======================= ===================================
owner_member   ``primary``             member of the project owning servers
owner_reader   ``project_reader``      reader of that same project
other_project  ``alt``                 a user of another project
admin          ``admin``               admin (only in classes that need it)
============== ======================= ===================================

``alt`` rather than ``project_alt_member``: Tempest's pre-provisioned
credentials provider has no ``project_alt_member`` (it returns None), and
its ``alt`` is any free non-admin account, so ``setup_clients`` checks that
the personas really are what the table says and raises
InvalidConfiguration naming the accounts file otherwise.  A class that
needs no admin sets ``credentials`` without ``'admin'``; it then runs with
member credentials only (``admin_servers`` is None).

Every request names its microversion explicitly (``self.at('2.16')``), so a
test reads as the API conversation it checks.
"""

from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc
from tempest import test

from pending_tempest_plugin.common import expectations
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import host_control
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.common import waiters

CONF = config.CONF

# Requested networks "none" (no port) needs 2.37.
NO_NETWORK_MICROVERSION = '2.37'
# Responses of PUT /servers/{id} and rebuild carry the full server.
FULL_UPDATE_RESPONSE_MICROVERSION = '2.75'


class _ClassCleanups(object):
    """Lets a helper that calls ``addCleanup`` register class cleanups."""

    def __init__(self, cls):
        self.addCleanup = cls.addClassResourceCleanup


class ConformanceTest(api_version_utils.BaseMicroversionTest,
                      test.BaseTestCase):

    # The personas: owner_member (primary), owner_reader (project_reader,
    # same project), other_project (alt) and admin.  A class that asks
    # only some of them gets only those (each is a project, user or role
    # assignment Tempest creates, and a lock on a pre-provisioned account).
    credentials = ['primary', 'project_reader', 'alt', 'admin']

    # The microversion range a test class needs; the class skips (naming
    # [compute] min/max_microversion) when the configuration excludes it.
    min_microversion = None
    max_microversion = 'latest'

    # What the class needs of the configuration: functions of
    # common/features.py, each returning None or the skip message naming
    # the option to set.  ``skip_checks`` skips the whole class, before it
    # creates anything, with the first message; a class whose tests need
    # different things is split so that none of them skips in its body.
    required_features = ()

    @classmethod
    def skip_checks(cls):
        super(ConformanceTest, cls).skip_checks()
        if not CONF.service_available.nova:
            raise cls.skipException(
                'Nova is not available: set [service_available] nova = '
                'True.')
        problems = features.config_problems()
        if problems:
            raise lib_exc.InvalidConfiguration(
                '[nova_conformance]: ' + '; '.join(problems))
        api_version_utils.check_skip_with_microversion(
            cls.min_microversion, cls.max_microversion,
            CONF.compute.min_microversion, CONF.compute.max_microversion)
        for needed in cls.required_features:
            reason = needed()
            if reason:
                raise cls.skipException(reason)

    @classmethod
    def setup_credentials(cls):
        # No per-project network, router or subnet: the tests that need
        # ports create their own network.
        cls.set_network_resources()
        super(ConformanceTest, cls).setup_credentials()

    @classmethod
    def setup_clients(cls):
        super(ConformanceTest, cls).setup_clients()
        cls.persona_servers = {'owner_member': cls.os_primary.servers_client}
        reader = other = None
        if 'project_reader' in cls.credentials:
            cls.persona_servers['owner_reader'] = (
                cls.os_project_reader.servers_client)
            reader = cls.os_project_reader.credentials.project_id
        if 'alt' in cls.credentials:
            cls.persona_servers['other_project'] = cls.os_alt.servers_client
            other = cls.os_alt.credentials.project_id
        cls.admin_servers = None
        if 'admin' in cls.credentials:
            cls.admin_servers = cls.os_admin.servers_client
            cls.persona_servers['admin'] = cls.admin_servers
        cls.owner_project_id = cls.os_primary.credentials.project_id
        cls.check_personas(cls.owner_project_id, reader, other)
        # (profile, {persona: servers client}) per host_status policy
        # profile the run checks: the cloud's own through the compute
        # endpoint of [compute] catalog_type, then each other compute
        # endpoint of [nova_conformance] host_status_profile_services.
        cls.profile_servers = [
            (profile, cls.persona_servers if service is None
             else cls.servers_clients_of(service))
            for profile, service in features.host_status_profiles()]

    @classmethod
    def servers_clients_of(cls, service):
        """{persona: servers client} of the compute service ``service``.

        The personas' credentials, another compute endpoint of the same
        cloud (a catalog service type).
        """
        managers = {'owner_member': 'os_primary',
                    'owner_reader': 'os_project_reader',
                    'other_project': 'os_alt', 'admin': 'os_admin'}
        eip = CONF.compute_feature_enabled.enable_instance_password
        return dict(
            (persona, getattr(cls, managers[persona]).compute.ServersClient(
                service=service, enable_instance_password=eip))
            for persona in cls.persona_servers)

    @staticmethod
    def check_personas(owner, reader, other):
        """Raise InvalidConfiguration unless the projects fit the personas.

        Dynamic credentials always fit; pre-provisioned ones fit when the
        accounts file has, per test worker, a member and a reader of one
        project and a user of another (doc: running, "Pre-provisioned
        credentials").  ``reader`` or ``other`` is None for a class without
        that persona.
        """
        if reader is not None and reader != owner:
            raise lib_exc.InvalidConfiguration(
                'persona owner_reader (Tempest project_reader, project %s) '
                'is not in the project of owner_member (Tempest primary, '
                'project %s): [auth] test_accounts_file needs an account '
                'with roles [reader] in the project of the member account'
                % (reader, owner))
        if other is not None and other == owner:
            raise lib_exc.InvalidConfiguration(
                'persona other_project (Tempest alt) got an account of the '
                'owner\'s project %s: [auth] test_accounts_file needs, '
                'per test worker, one account in another project and no '
                'spare account in the owner\'s' % owner)

    # -- configuration ------------------------------------------------------

    @staticmethod
    def at(version):
        """Context manager: compute requests at ``version``."""
        return microversions.compute(version)

    # -- servers ------------------------------------------------------------

    @classmethod
    def create_server(cls, client=None, flavor=None, wait_for='ACTIVE',
                      cleanup=None, version=None, **kwargs):
        """Boot a server (no network by default) and wait until it settles.

        :param client: servers client of the owner (default: owner_member).
        :param wait_for: a status or a set of statuses; None: do not wait.
        :param cleanup: the object whose ``addCleanup`` deletes the server
                        (a test); default: a class resource cleanup.
        :param version: request microversion (default 2.37, for networks
                        "none").
        :param kwargs: more create parameters; ``name``, ``imageRef`` and
                       ``networks`` default to a random name, ``[compute]
                       image_ref`` and "none".
        :returns: the server body after the wait (or the create response).
        """
        client = client or cls.os_primary.servers_client
        kwargs.setdefault('name', data_utils.rand_name(
            name=cls.__name__ + '-server', prefix=CONF.resource_name_prefix))
        kwargs.setdefault('imageRef', CONF.compute.image_ref)
        kwargs.setdefault('networks', 'none')
        with cls.at(version or NO_NETWORK_MICROVERSION):
            server = client.create_server(
                flavorRef=flavor or CONF.compute.flavor_ref,
                **kwargs)['server']
        (cleanup or _ClassCleanups(cls)).addCleanup(
            cls.delete_server, server['id'])
        if wait_for is None:
            return server
        return waiters.wait_for_server_status(
            cls.admin_servers or client, server['id'], wait_for)

    @classmethod
    def delete_server(cls, server_id):
        """Delete (as admin, else as owner) and wait until it is gone."""
        client = cls.admin_servers or cls.os_primary.servers_client
        test_utils.call_and_ignore_notfound_exc(
            client.delete_server, server_id)
        waiters.wait_for_server_deletion(client, server_id)

    @classmethod
    def host_of(cls, server_id):
        """The compute host of a server, as admin reads it."""
        with cls.at('2.1'):
            server = cls.admin_servers.show_server(server_id)['server']
        return server.get('OS-EXT-SRV-ATTR:host')

    @classmethod
    def move_to(cls, server_id, host, why):
        """Cold-migrate the server to ``host`` (admin, 2.56); the new host.

        ``why`` says why the scheduler's choice does not do; it is part of
        the InvalidConfiguration raised when the server cannot be moved.
        No service of either host is touched.
        """
        if not CONF.compute_feature_enabled.cold_migration:
            raise lib_exc.InvalidConfiguration(
                '%s, and [compute-feature-enabled] cold_migration is False: '
                'enable cold migration' % why)
        with cls.at('2.56'):
            cls.admin_servers.migrate_server(server_id, host=host)
        # A cloud with resize_confirm_window set confirms by itself.
        body = waiters.wait_for_server_status(
            cls.admin_servers, server_id, {'VERIFY_RESIZE', 'ACTIVE'})
        if body['status'] == 'VERIFY_RESIZE':
            with cls.at('2.1'):
                cls.admin_servers.confirm_resize_server(server_id)
            waiters.wait_for_server_status(cls.admin_servers, server_id,
                                           'ACTIVE')
        moved = cls.host_of(server_id)
        if moved != host:
            raise lib_exc.InvalidConfiguration(
                'server %s was migrated to %s but runs on %s (%s)'
                % (server_id, host, moved, why))
        return moved

    @classmethod
    def server_on_disruptive_host(cls, **kwargs):
        """(server, host): a server booted on a ``disruptive_hosts`` host.

        Cold-migrated to the first of them if the scheduler put it
        elsewhere; ``kwargs`` go to ``create_server``.
        """
        server = cls.create_server(**kwargs)
        host = cls.host_of(server['id'])
        allowed = CONF.nova_conformance.disruptive_hosts
        if host not in allowed:
            host = cls.move_to(
                server['id'], allowed[0],
                'the scheduler put the server on %s, which '
                '[nova_conformance] disruptive_hosts does not list' % host)
        return server, host

    def admin_host_status(self, server):
        """The host_status admin reads for ``server`` at 2.16."""
        with self.at('2.16'):
            return self.admin_servers.show_server(
                server['id'])['server'].get('host_status')

    def host_control(self):
        """A HostControl for this test; every change undone at cleanup."""
        return self._host_control(self)

    @classmethod
    def class_host_control(cls):
        """A HostControl for the class; undone at class cleanup.

        For a state every test of the class shares (a stopped compute):
        it is reached once, and each test's own ``host_control`` changes
        only what that test adds and puts it back.
        """
        return cls._host_control(_ClassCleanups(cls))

    @classmethod
    def _host_control(cls, owner):
        if not features.novalidhost():
            # Runs after HostControl put the service back: nova-compute
            # may have re-created deleted NoValidHost trigger traits while
            # syncing the disabled state (see common/novalidhost.py).
            owner.addCleanup(novalidhost.sweep_orphan_traits,
                             cls.os_admin.placement_client,
                             cls.os_admin.flavors_client)
        return host_control.HostControl(owner, cls.os_admin.services_client)

    def view(self, persona, server, version, servers=None):
        """What ``persona`` gets for ``server`` at ``version``.

        :param servers: {persona: servers client} of one of
                        ``profile_servers`` (default: the cloud's own
                        compute endpoint).
        :returns: (show body or None on 404, detail entry or None when the
                  listing does not contain the server).
        """
        client = (servers or self.persona_servers)[persona]
        with self.at(version):
            try:
                shown = client.show_server(server['id'])['server']
            except lib_exc.NotFound:
                shown = None
        return shown, self.listed(persona, server, version, servers)

    def listed(self, persona, server, version, servers=None):
        """``server``'s entry in ``persona``'s detail listing, or None.

        The listing is filtered by the server's name (and, for the admin,
        spans every project); :meth:`view`'s ``servers`` as there.
        """
        client = (servers or self.persona_servers)[persona]
        params = {'detail': True, 'name': '^%s$' % server['name']}
        if persona == 'admin':
            params['all_tenants'] = True
        with self.at(version):
            found = [s for s in client.list_servers(**params)['servers']
                     if s['id'] == server['id']]
        return found[0] if found else None

    def check_visibility(self, server, host_status, version='2.16',
                         personas=None):
        """Every persona, in show and in detail, sees what the profile says.

        Under each profile of ``profile_servers``, through its endpoint.
        ``personas`` defaults to every persona the class has credentials for
        (all four, or three in a class without admin).  Fails once with
        every discrepancy (under-permission, over-permission, wrong value, a
        value outside the spec's list).
        """
        problems = []
        for profile, servers in self.profile_servers:
            for persona in personas or self.personas():
                shown, listed = self.view(persona, server, version, servers)
                problems.extend(self.visibility_problems(
                    persona, host_status, shown,
                    self.where('GET server at %s' % version, profile),
                    profile))
                problems.extend(self.visibility_problems(
                    persona, host_status, listed,
                    self.where('GET servers/detail at %s' % version,
                               profile), profile))
        self.fail_visibility(problems)

    def require_update_response(self):
        """Skip, before the test changes anything, below microversion 2.75.

        The update response carries host_status from 2.75: a test of it
        calls this first, naming [compute] min/max_microversion.
        """
        version = FULL_UPDATE_RESPONSE_MICROVERSION
        low, high = (CONF.compute.min_microversion,
                     CONF.compute.max_microversion)
        if high not in (None, 'latest') and not microversions.at_least(
                high, version):
            raise self.skipException(
                '[compute] max_microversion %s is below %s, which returns '
                'host_status in the update response' % (high, version))
        if low not in (None, 'latest') and microversions.at_least(
                low, version) and low != version:
            # Requests are made at 2.75 exactly.
            raise self.skipException(
                '[compute] min_microversion %s is above %s' % (low, version))

    def check_update_response(self, server, host_status):
        """PUT /servers/{id} at 2.75 answers ``host_status`` as show does.

        For the admin and the owner (the personas that may update), under
        each profile, through its endpoint; the test called
        :meth:`require_update_response` first.
        """
        version = FULL_UPDATE_RESPONSE_MICROVERSION
        problems = []
        read = 0
        for profile, servers in self.profile_servers:
            for persona in ('admin', 'owner_member'):
                if persona not in servers:
                    continue
                read += 1
                with self.at(version):
                    body = servers[persona].update_server(
                        server['id'], description='host_status %s, %s' % (
                            host_status, persona))['server']
                problems.extend(self.visibility_problems(
                    persona, host_status, body,
                    self.where('PUT /servers/{id} at %s' % version, profile),
                    profile))
        if not read:
            self.fail('No update response read: the class has neither the '
                      'admin nor the owner')
        self.fail_visibility(problems)

    def where(self, request, profile):
        """``request``, naming the endpoint when the run checks several."""
        if len(self.profile_servers) < 2:
            return request
        return '%s, %s endpoint' % (request, profile)

    def personas(self):
        """The personas of expectations.PERSONAS this class has."""
        return [p for p in expectations.PERSONAS if p in self.persona_servers]

    @staticmethod
    def visibility_problems(persona, host_status, body, where, profile=None):
        """[] or the one discrepancy of ``body`` (None: not returned).

        ``host_status`` is what the server's compute reads; ``where`` names
        the request in the message; ``profile`` is the policy profile of the
        endpoint that answered (default: the cloud's own).
        """
        profile = profile or CONF.nova_conformance.host_status_policy_profile
        if body is not None and 'host_status' in body and (
                body['host_status'] not in expectations.HOST_STATUSES):
            return ['%s (%s): host_status %r is not one of %s' % (
                persona, where, body['host_status'],
                expectations.HOST_STATUSES)]
        problem = expectations.verdict(profile, persona, host_status, body)
        return ['%s (%s)' % (problem, where)] if problem else []

    def fail_visibility(self, problems):
        if problems:
            group = CONF.nova_conformance
            claimed = 'host_status_policy_profile = %s' % (
                group.host_status_policy_profile)
            if group.host_status_profile_services:
                claimed += ', host_status_profile_services = %s' % ','.join(
                    '%s:%s' % kv for kv in sorted(
                        group.host_status_profile_services.items()))
            self.fail('host_status visibility differs from [nova_conformance] '
                      '%s:\n  %s' % (claimed, '\n  '.join(problems)))
