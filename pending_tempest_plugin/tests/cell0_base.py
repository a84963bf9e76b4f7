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
"""What the PENDING and cell0 rebuild tests share.

A server "buried in cell0" is one whose scheduling failed with NoValidHost
(the reversible trait trigger of ``common/novalidhost.py``): PENDING when
``[nova_conformance] pending_state_enabled`` says nova runs with
``use_pending_state``, ERROR otherwise.  ``Cell0Test`` boots, buries,
rebuilds and checks what is left after a delete; the pure checks it and
its tests make are in ``common/checks.py`` and ``common/microversions.py``.
"""
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import novalidhost
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import base

CONF = config.CONF

# Volume statuses of a volume a server holds (attached or reserved).
HELD = ('in-use', 'reserved')


class Cell0Test(base.ConformanceTest):
    """Boot into cell0, rebuild out of it, check nothing is left."""

    # The owner and admin: no test of these classes asks the reader or
    # another project (host_status visibility is where those personas
    # matter), so Tempest creates neither for them.
    credentials = ['primary', 'admin']

    _api_max = None

    # Servers boot on a network of the owner when the cloud has a network
    # service (networks "none" otherwise, or when a test asks for it).
    network = None
    # Whether the class creates that network (a class that needs a project
    # without networks, for "auto", sets it False).
    class_network = True

    @classmethod
    def setup_clients(cls):
        super(Cell0Test, cls).setup_clients()
        cls.owner_servers = cls.os_primary.servers_client
        cls.admin_quotas = cls.os_admin.quotas_client

    @classmethod
    def resource_setup(cls):
        super(Cell0Test, cls).resource_setup()
        if cls.class_network and not features.networks():
            cls.network = cls._create_network(base._ClassCleanups(cls))[0]

    # -- configuration ------------------------------------------------------

    @property
    def pending_mv(self):
        return CONF.nova_conformance.pending_state_microversion

    @property
    def rebuild_mv(self):
        return CONF.nova_conformance.cell0_rebuild_microversion

    @property
    def view_mv(self):
        """The microversion that shows PENDING as PENDING, if any."""
        return self.rebuild_mv or self.pending_mv or '2.1'

    @classmethod
    def api_max_microversion(cls):
        """The maximum compute microversion the API advertises."""
        if cls._api_max is None:
            cls._api_max = microversions.api_max_microversion(
                cls.os_primary.compute_versions_client)
        return cls._api_max

    def require_microversions(self, *versions):
        """Fail (not error) if the API lacks a configured microversion."""
        api_max = self.api_max_microversion()
        for version in versions:
            if version and not microversions.at_least(api_max, version):
                self.fail('[nova_conformance] says the cloud has compute '
                          'microversion %s, but the API advertises %s at '
                          'most' % (version, api_max))

    # -- servers ------------------------------------------------------------

    def novalidhost_trigger(self):
        """A private flavor no host can take (test cleanups undo it).

        The class needs ``features.novalidhost`` (``features.pending_enabled``
        and ``features.cell0_rebuild`` include it) in its
        ``required_features``.
        """
        trigger = novalidhost.NoValidHostTrigger(
            self, self.os_admin.flavors_client,
            self.os_admin.placement_client,
            self.os_admin.resource_providers_client,
            self.os_admin.hypervisor_client)
        trigger.create_flavor(self.owner_project_id)
        return trigger

    def boot(self, flavor_id, version=None, networks=None, image=None,
             client=None, **kwargs):
        """Boot as the owner (deleted at cleanup); return the response.

        :param networks: default: the class network, or "none" without a
                         network service.
        :param client: the owner's servers client (default: the cloud's
                       compute endpoint).
        """
        if networks is None:
            networks = ([{'uuid': self.network['id']}] if self.network
                        else 'none')
        if image:
            kwargs['imageRef'] = image
        return self.create_server(
            client=client or self.owner_servers, flavor=flavor_id,
            wait_for=None,
            cleanup=self, version=version, networks=networks, **kwargs)

    def wait_status(self, server_id, status):
        """Wait as admin, at a microversion that shows PENDING."""
        with self.at(self.view_mv):
            return waiters.wait_for_server_status(self.admin_servers,
                                                  server_id, status)

    def show(self, server_id, version=None, client=None):
        with self.at(version or self.view_mv):
            return (client or self.admin_servers).show_server(
                server_id)['server']

    def need(self, server_id, resource):
        """What ``server_id`` counts against quota ``resource``.

        ``instances`` (1), ``cores`` or ``ram`` (of its flavor, as shown).
        """
        if resource == 'instances':
            return 1
        flavor = self.show(server_id, self.rebuild_mv)['flavor']
        return flavor[{'cores': 'vcpus', 'ram': 'ram'}[resource]]

    def expected_buried(self):
        return checks.buried_state(
            CONF.nova_conformance.pending_state_enabled)

    def bury(self, trigger, version=None, **kwargs):
        """Boot with the NoValidHost flavor; wait for PENDING or ERROR.

        Fails (naming expected and actual) if the server ends in the other
        buried state than the configuration says.
        """
        self.require_microversions(self.pending_mv, self.rebuild_mv)
        server = self.boot(trigger.flavor['id'], version, **kwargs)
        body = self.wait_status(server['id'], waiters.TERMINAL)
        self.assert_state(body, self.expected_buried(),
                          'after NoValidHost (at %s)' % self.view_mv)
        self._settle_listing(body)
        return body

    # Nova buries a server by creating its cell0 record and mapping it to
    # cell0, then deleting its build request: for a moment show answers the
    # buried state while a listing, which reads the build requests first,
    # still shows BUILD (seen once in CI).  A test reading both waits this
    # long at most for the listing to agree; a listing that never agrees
    # fails the test's own checks, which name the difference.
    LISTING_SETTLE_TIMEOUT = 10

    def _settle_listing(self, body):
        """Until the admin's listing shows ``body``'s status (bounded)."""
        try:
            polling.poll(
                lambda: self.listed('admin', body, self.view_mv),
                lambda found: found is not None and (
                    found.get('status') == body.get('status')),
                self.LISTING_SETTLE_TIMEOUT, waiters.poll_interval(),
                what='server %s listed as %s' % (body['id'],
                                                 body.get('status')),
                describe=lambda found: (found or {}).get('status',
                                                         'not listed'))
        except polling.PollTimeout:
            pass

    def assert_state(self, body, state, when):
        status, vm_state = state
        actual = (body.get('status'), body.get('OS-EXT-STS:vm_state'))
        if actual != (status, vm_state):
            pending = CONF.nova_conformance.pending_state_enabled
            self.fail('Server %s %s: expected status %s / vm_state %s, got '
                      '%s / %s ([nova_conformance] pending_state_enabled = '
                      '%s)' % (body.get('id'), when, status, vm_state,
                               actual[0], actual[1], pending))

    def rebuild(self, server_id, version=None, client=None, image=None,
                accepted=True, **kwargs):
        """Rebuild (as the owner by default); return the response server.

        :param accepted: whether the test expects 202; then a 4xx answer
                         fails the test naming it.  A 5xx always fails it.
        """
        version = version or self.rebuild_mv
        refused = ((lib_exc.ServerFault, lib_exc.Conflict, lib_exc.BadRequest)
                   if accepted else lib_exc.ServerFault)
        with self.at(version):
            try:
                return (client or self.owner_servers).rebuild_server(
                    server_id, image or CONF.compute.image_ref,
                    **kwargs)['server']
            except refused as exc:
                self.fail('Rebuild of server %s at %s: expected 202 '
                          'Accepted, got %s %s' % (
                              server_id, version, exc.resp.status,
                              exc.resp_body))

    def rebuild_to_active(self, server_id, **kwargs):
        """Cell0 rebuild; check it answers BUILD and ends ACTIVE, same ID."""
        response = self.rebuild(server_id, **kwargs)
        self.assertEqual(server_id, response['id'],
                         'The cell0 rebuild response names another server')
        self.assertEqual('BUILD', response['status'],
                         'Status in the response of the cell0 rebuild of %s:'
                         ' expected BUILD, got %s' % (server_id,
                                                      response['status']))
        return self.wait_status(server_id, 'ACTIVE')

    def assert_on_healthy_host(self, server_id):
        """Admin sees a host and host_status UP."""
        with self.at(microversions.HOST_STATUS_MICROVERSION):
            body = self.admin_servers.show_server(server_id)['server']
        self.assertTrue(body.get('OS-EXT-SRV-ATTR:host'),
                        'Rebuilt server %s: expected a host, got %r' % (
                            server_id, body.get('OS-EXT-SRV-ATTR:host')))
        self.assertEqual('UP', body.get('host_status'),
                         'Rebuilt server %s: expected host_status UP, got '
                         '%r' % (server_id, body.get('host_status')))

    def usage(self, resource, project_id=None, quotas=None):
        """(limit, in_use) of a compute quota resource of the owner.

        :param quotas: the admin's quota sets client (default: the cloud's
                       compute endpoint).
        """
        quota = (quotas or self.admin_quotas).show_quota_set(
            project_id or self.owner_project_id, detail=True)['quota_set']
        return quota[resource]['limit'], quota[resource]['in_use']

    def others_usage(self, resource, quotas=None, servers=None):
        """What the owner's servers count against ``resource`` now.

        :param quotas: the admin's quota sets client (default: the cloud's
                       compute endpoint).
        :param servers: the owner's servers client (default: the same).

        The quota's ``in_use`` once it equals what the owner's servers,
        as listed, need: a server a previous test deleted may still count
        for a moment (its delete in flight), and a limit set from that
        reading would be one server too high.  Read before any burial of
        the test (a buried server counts as the cloud's counting says).
        After 30 seconds the last reading is taken as it is.
        """
        def need(server_id):
            try:
                return self.need(server_id, resource)
            except lib_exc.NotFound:   # deleted since the listing
                return 0

        def listed():
            listing = (servers or self.owner_servers).list_servers()
            return sum(need(s['id']) for s in listing['servers'])

        try:
            return polling.poll(
                lambda: (self.usage(resource, quotas=quotas)[1], listed()),
                lambda pair: pair[0] == pair[1], 30,
                waiters.poll_interval(), what='%s in use' % resource)[0]
        except polling.PollTimeout as exc:
            return exc.value[0]

    # Keystone's names of nova's quota resources (unified limits).
    UNIFIED_LIMITS = {'instances': 'servers', 'cores': 'class:VCPU',
                      'ram': 'class:MEMORY_MB'}

    def set_quota(self, *, mode=None, quotas=None, project_id=None,
                  **limits):
        """Change the owner's quota; return the function that restores it.

        ``project_id``: another project's instead of the owner's.

        The restore also runs at cleanup (once: calling it first makes the
        cleanup a no-op).  Where the quota is counted with unified limits
        (``mode``, default ``[nova_conformance] quota_counting``), the
        limits live in Keystone: each becomes a project limit of the
        compute service, deleted by the restore.  Otherwise nova's quota
        set is updated (forced) and put back, through ``quotas`` (the
        admin's quota sets client; default: the cloud's compute endpoint).
        """
        quotas = quotas or self.admin_quotas
        project_id = project_id or self.owner_project_id
        if (mode or CONF.nova_conformance.quota_counting) == 'unified_limits':
            undo = self._set_project_limits(limits, project_id)
        else:
            original = quotas.show_quota_set(project_id)['quota_set']
            restore = dict((key, original[key]) for key in limits)
            quotas.update_quota_set(project_id, force=True, **limits)

            def undo():
                quotas.update_quota_set(project_id, force=True, **restore)
        done = []

        def restore_once():
            # Done once it worked: a restore that failed is tried again at
            # cleanup.
            if not done:
                undo()
                done.append(True)
        self.addCleanup(restore_once)
        return restore_once

    def _set_project_limits(self, limits, project_id):
        identity = self.os_admin.identity_limits_client
        services = self.os_admin.identity_services_v3_client.list_services(
            type='compute')['services']
        if len(services) != 1:
            self.fail('unified limits: expected one compute service in '
                      'Keystone, found %d' % len(services))
        endpoints = self.os_admin.endpoints_v3_client.list_endpoints(
            service_id=services[0]['id'])['endpoints']
        regions = sorted({e['region_id'] for e in endpoints
                          if e['interface'] == 'public'})
        if len(regions) != 1:
            self.fail('unified limits: expected the compute service in one '
                      'region, found %s' % regions)
        created = []
        for resource, value in sorted(limits.items()):
            limit = identity.create_limit(
                regions[0], services[0]['id'], project_id,
                self.UNIFIED_LIMITS[resource], value,
                description='pending-tempest-plugin quota test')
            created.append(limit['limits'][0]['id'])

        def undo():
            # tempest.lib's LimitsClient has no delete (Keystone: DELETE
            # /v3/limits/{id}, 204); its RestClient does the request.
            for limit_id in created:
                resp, _ = identity.delete('limits/%s' % limit_id)
                identity.expected_success(204, resp.status)
        return undo

    def _rebuild_outcome(self, server_id):
        """(HTTP status, server status, detail) of a rebuild as the owner.

        Never raises for the answer: a test that expects a refusal judges
        the status and the detail itself.
        """
        try:
            body = self.owner_servers.rebuild_server(
                server_id, CONF.compute.image_ref)['server']
            return 202, body.get('status'), ''
        except lib_exc.RestClientException as e:
            return (getattr(getattr(e, 'resp', None), 'status', None), None,
                    str(getattr(e, 'resp_body', e))[:300])
        except Exception as e:   # a dropped connection, a timeout...
            return None, None, repr(e)[:300]

    def delete_leaving_nothing(self, server_id):
        """Delete the server as the owner; fail if anything of it is left."""
        self.owner_servers.delete_server(server_id)
        waiters.wait_for_server_deletion(self.admin_servers, server_id)
        self.assertEqual([], self.leftovers(server_id))

    def instance_events(self, server_id, action_name):
        """(action names, events of its ``action_name`` actions), as admin."""
        actions, events = self.instance_actions(server_id, action_name)
        return [a['action'] for a in actions], events

    def instance_actions(self, server_id, action_name):
        """(the server's actions, the events of its ``action_name`` ones)."""
        with self.at(self.view_mv):
            actions = self.admin_servers.list_instance_actions(
                server_id)['instanceActions']
            events = []
            for action in actions:
                if action['action'] != action_name:
                    continue
                events.extend(self.admin_servers.show_instance_action(
                    server_id, action['request_id'])['instanceAction'].get(
                        'events', []))
        return actions, events

    def allocation_problems(self, server_id, when=''):
        """How the server's placement allocations differ from its state.

        A server with no host (buried) holds none; a built one holds
        exactly its flavor's VCPU and MEMORY_MB on its node's resource
        provider, for its owner's project and user (placement's per-user
        usage is what nova counts per-user quotas from).
        """
        body = self.show(server_id, self.rebuild_mv)
        with microversions.placement('1.12'):
            held = self.os_admin.placement_client.list_allocations(
                server_id)
        found = held.get('allocations') or {}
        host = body.get('OS-EXT-SRV-ATTR:host')
        if not host:
            if found:
                return ['%splacement allocations of server %s, which is '
                        'on no host (%s): expected none, got %s' % (
                            when, server_id, waiters.describe(body),
                            found)]
            return []
        node = body.get('OS-EXT-SRV-ATTR:hypervisor_hostname')
        with microversions.placement('1.12'):
            providers = (
                self.os_admin.resource_providers_client
                .list_resource_providers(name=node)['resource_providers'])
        expected = sorted(p['uuid'] for p in providers)
        problems = []
        if sorted(found) != expected:
            problems.append('%splacement allocations of server %s on node '
                            '%s: expected on its provider %s only, got %s'
                            % (when, server_id, node, expected, found))
        else:
            flavor = body['flavor']
            resources = found[expected[0]].get('resources', {})
            want = {'VCPU': flavor['vcpus'], 'MEMORY_MB': flavor['ram']}
            got = {rc: resources.get(rc) for rc in want}
            if got != want:
                problems.append('%splacement allocations of server %s: '
                                'expected its flavor\'s %s, got %s' % (
                                    when, server_id, want, resources))
        owner = {'project_id': body['tenant_id'], 'user_id': body['user_id']}
        consumer = {key: held.get(key) for key in owner}
        if consumer != owner:
            problems.append('%splacement allocations of server %s: expected '
                            'its owner\'s project and user %s, got %s' % (
                                when, server_id, owner, consumer))
        return problems

    def leftovers(self, server_id, timeout=None):
        """What remains of a deleted server: a list of sentences.

        Polls until nothing is left or ``timeout`` (default
        ``[compute] build_timeout``) passes: the server (admin show),
        placement allocations, ports.
        """
        timeout = timeout or CONF.compute.build_timeout

        def fetch():
            problems = []
            try:
                body = self.admin_servers.show_server(server_id)['server']
                if body.get('status') != 'DELETED':
                    problems.append('server still exists: %s' %
                                    waiters.describe(body))
            except lib_exc.NotFound:
                pass
            with microversions.placement('1.12'):
                allocations = self.os_admin.placement_client.list_allocations(
                    server_id)['allocations']
            if allocations:
                problems.append('placement allocations left: %s'
                                % sorted(allocations))
            if CONF.service_available.neutron:
                ports = self.os_admin.ports_client.list_ports(
                    device_id=server_id)['ports']
                if ports:
                    problems.append('ports left: %s'
                                    % [p['id'] for p in ports])
            return problems

        try:
            return polling.poll(
                fetch, lambda problems: not problems, timeout,
                waiters.poll_interval(),
                what='leftovers of server %s' % server_id,
                describe=lambda problems: '; '.join(problems) or 'none')
        except polling.PollTimeout as exc:
            return exc.value

    def create_network(self, **subnet_kwargs):
        """A network + subnet of the owner (deleted at test cleanup).

        The class needs ``features.networks`` in its ``required_features``.
        """
        return self._create_network(self, **subnet_kwargs)

    @classmethod
    def _create_network(cls, cleanup, small_pool=False):
        """A network and a /28 subnet of the owner.

        :param small_pool: the subnet allocates only .2 - .5 by itself, so
                           .6 - .14 are addresses only a request for that
                           fixed IP can get.
        """
        name = data_utils.rand_name(name=cls.__name__ + '-net',
                                    prefix=CONF.resource_name_prefix)
        nets = cls.os_primary.networks_client
        network = nets.create_network(name=name)['network']
        cleanup.addCleanup(cls._delete_network, network['id'])
        prefix = '10.%d.%d.' % (data_utils.rand_int_id(1, 250),
                                data_utils.rand_int_id(1, 250))
        kwargs = {}
        if small_pool:
            kwargs['allocation_pools'] = [{'start': prefix + '2',
                                           'end': prefix + '5'}]
        subnet = cls.os_primary.subnets_client.create_subnet(
            network_id=network['id'], name=name, ip_version=4,
            cidr=prefix + '0/28', **kwargs)['subnet']
        return network, subnet

    def create_port(self, network_id):
        """A port of the owner (deleted at cleanup if it still exists)."""
        ports = self.os_primary.ports_client
        port = ports.create_port(
            network_id=network_id, name=data_utils.rand_name(
                name=self.__class__.__name__ + '-port',
                prefix=CONF.resource_name_prefix))['port']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        ports.delete_port, port['id'])
        return port

    @classmethod
    def _delete_network(cls, network_id):
        # Nova deletes the ports of a deleted server asynchronously.
        def server_ports():
            ports = cls.os_admin.ports_client.list_ports(
                network_id=network_id)['ports']
            return sorted(p['id'] for p in ports
                          if p['device_owner'].startswith('compute:'))
        try:
            polling.poll(server_ports, lambda ports: not ports,
                         CONF.compute.build_timeout,
                         waiters.poll_interval(),
                         what='server ports on network %s' % network_id)
        except polling.PollTimeout:
            pass   # the delete below then fails: the network is in use
        test_utils.call_and_ignore_notfound_exc(
            cls.os_primary.networks_client.delete_network, network_id)

    def create_volume(self, **kwargs):
        """Create a volume as the owner; wait until it is available.

        The cleanup (registered before any server that uses the volume, so
        it runs after that server is deleted) waits for the volume to be
        released, deletes it and waits until it is gone.
        """
        volumes = self.os_primary.volumes_client_latest
        volume = volumes.create_volume(
            size=CONF.volume.volume_size,
            name=data_utils.rand_name(name=self.__class__.__name__ + '-vol',
                                      prefix=CONF.resource_name_prefix),
            **kwargs)['volume']
        self.addCleanup(self._delete_volume, volume['id'])
        return waiters.wait_for_volume_status(volumes, volume['id'],
                                              'available')

    def _delete_volume(self, volume_id):
        volumes = self.os_primary.volumes_client_latest
        try:
            volume = waiters.wait_for_volume_status(
                volumes, volume_id, ('available', 'error') + HELD)
        except lib_exc.NotFound:
            return
        if volume['status'] in HELD:
            # Every server that used it is deleted by now (their cleanups
            # ran first), yet the cloud still holds the volume: remove it
            # anyway so that nothing is left behind, and say so.
            admin_volumes = self.os_admin.volumes_client_latest
            admin_volumes.force_delete_volume(volume_id)
            waiters.wait_for_volume_deletion(admin_volumes, volume_id)
            raise lib_exc.TempestException(
                'Volume %s was still %s after the server using it was '
                'deleted (force-deleted by the cleanup)' % (
                    volume_id, volume['status']))
        test_utils.call_and_ignore_notfound_exc(volumes.delete_volume,
                                                volume_id)
        waiters.wait_for_volume_deletion(volumes, volume_id)

    def create_security_group(self):
        """A security group of the owner's, deleted at cleanup."""
        groups = self.os_primary.security_groups_client
        name = data_utils.rand_name(name=self.__class__.__name__ + '-sg',
                                    prefix=CONF.resource_name_prefix)
        group = groups.create_security_group(name=name)['security_group']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        groups.delete_security_group, group['id'])
        return group

    def create_keypair(self):
        name = data_utils.rand_name(name=self.__class__.__name__ + '-key',
                                    prefix=CONF.resource_name_prefix)
        self.os_primary.keypairs_client.create_keypair(name=name)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.os_primary.keypairs_client.delete_keypair, name)
        return name
