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
"""Rebuild of servers buried in cell0.

The spec: *Enable Rebuild for Instances in cell0*.

A server is buried with the reversible trait trigger; capacity "appears"
when the trait is added to one compute provider (restored at cleanup).
Rebuilds run as the owner at ``[nova_conformance]
cell0_rebuild_microversion``.  Interpretations cited: interpretation.rst
anchors ``interp-rebuild-eligibility``, ``interp-rebuild-kept``,
``interp-quota-recheck``, ``interp-rebuild-no-capacity``,
``interp-hard-delete``.
"""

import base64
import io
import types

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import group_hints
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF

# The tag of a data volume (a device tag of the create request).
DATA_VOLUME_TAG = 'pending-data'


class Cell0RebuildBase(cell0_base.Cell0Test):
    """What the cell0 rebuild classes share; it has no test."""

    required_features = (features.cell0_rebuild,)

    def _buried(self, **kwargs):
        trigger = self.novalidhost_trigger()
        return trigger, self.bury(trigger, **kwargs)

    def _assert_buried_again(self, server_id, why):
        """The server ends buried again, no host (``why`` says why)."""
        body = self.wait_status(server_id, waiters.TERMINAL | {'ACTIVE'})
        if body.get('OS-EXT-SRV-ATTR:host') or (
                (body.get('status'), body.get('OS-EXT-STS:vm_state'))
                != self.expected_buried()):
            self.fail('cell0 rebuild %s: expected the server buried again '
                      '(%s, no host), got %s on host %r' % (
                          why, '/'.join(self.expected_buried()),
                          waiters.describe(body),
                          body.get('OS-EXT-SRV-ATTR:host')))

    def server_group(self, policy):
        """A server group of the owner's with ``policy`` (cleaned up)."""
        groups = self.os_primary.server_groups_client
        group = groups.create_server_group(
            name=data_utils.rand_name(
                name=self.__class__.__name__ + '-group',
                prefix=CONF.resource_name_prefix),
            policies=[policy])['server_group']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        groups.delete_server_group, group['id'])
        return group

    def _deleted_records(self, server_id):
        """How many deleted records of the server admin can list."""
        with self.at('2.1'):
            deleted = self.admin_servers.list_servers(
                detail=True, all_tenants=True, deleted=True,
                uuid=server_id)['servers']
        return len([s for s in deleted if s['id'] == server_id])

    def _check_rebuilt(self, server_id):
        self.assert_on_healthy_host(server_id)
        # interp-hard-delete: no deleted copy of the server is left behind.
        count = self._deleted_records(server_id)
        self.assertEqual(
            0, count, 'Deleted records of rebuilt server %s: expected none '
            '(the cell0 record is hard deleted), got %d' % (server_id, count))
        self.assertEqual([], self.allocation_problems(
            server_id, 'after the cell0 rebuild: '))

    def _requested_nics(self):
        """NICs in each form the create API takes; what the server must have.

        A pre-created port, a fixed IP (outside its subnet's allocation
        pool, so no other request gets it) and a network by ID, each on a
        network of its own.  The project also has the class network, so a
        rebuild that lost the request cannot pass by auto-selecting one.

        :returns: (the ``networks`` of the create request, what
                  ``_network_problems`` expects)
        """
        port_net, _ = self.create_network()
        fixed_net, fixed_subnet = self.create_network(small_pool=True)
        uuid_net, _ = self.create_network()
        port = self.create_port(port_net['id'])
        fixed_ip = fixed_subnet['cidr'].rsplit('.', 1)[0] + '.13'
        networks = [{'port': port['id']},
                    {'uuid': fixed_net['id'], 'fixed_ip': fixed_ip},
                    {'uuid': uuid_net['id']}]
        expect = {'port': port['id'],
                  'port_ip': port['fixed_ips'][0]['ip_address'],
                  'fixed_net': fixed_net['id'], 'fixed_ip': fixed_ip,
                  'nets': sorted([port_net['id'], fixed_net['id'],
                                  uuid_net['id']])}
        return networks, expect

    def _network_problems(self, server_id, expect, when):
        """How the server's ports and addresses differ from the request."""
        problems = []
        admin_ports = self.os_admin.ports_client
        ports = admin_ports.list_ports(device_id=server_id)['ports']
        nets = sorted(p['network_id'] for p in ports)
        if nets != expect['nets']:
            problems.append(
                "%snetworks of the ports of server %s: expected %s (the "
                "requested port's, the fixed IP's, the requested network), "
                "got %s" % (when, server_id, expect['nets'], nets))
        device = admin_ports.show_port(expect['port'])['port']['device_id']
        if device != server_id:
            problems.append('%srequested port %s: expected bound to server '
                            '%s (device_id), got %r' % (
                                when, expect['port'], server_id, device))
        fixed = sorted(ip['ip_address'] for p in ports
                       if p['network_id'] == expect['fixed_net']
                       for ip in p['fixed_ips'])
        if fixed != [expect['fixed_ip']]:
            problems.append('%saddress on network %s of the requested fixed '
                            'IP: expected [%r], got %s' % (
                                when, expect['fixed_net'],
                                expect['fixed_ip'], fixed))
        shown = checks.addresses_of(self.show(server_id))
        wanted = sorted([expect['port_ip'], expect['fixed_ip']])
        if len(shown) != 3 or [a for a in wanted if a not in shown]:
            problems.append("%saddresses of server %s: expected 3, among "
                            "them the requested port's %s and the fixed IP "
                            "%s, got %s" % (when, server_id,
                                            expect['port_ip'],
                                            expect['fixed_ip'], shown))
        return problems

    def _rebuilt_auto_network_server(self, client=None):
        """A server with networks "auto", buried and rebuilt to ACTIVE.

        :param client: the servers client that rebuilds (default: the
                       owner's).
        :returns: (the server, the owner's auto-allocated network); the
                  topology is deleted at cleanup, after the server.
        """
        networks_client = self.os_admin.networks_client
        uri = '/auto-allocated-topology/%s' % self.owner_project_id
        # Runs after the server's deletion (cleanups run last in, first
        # out): its port must be gone before the topology can go.
        self.addCleanup(networks_client.delete_resource, uri)
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version='2.37', networks='auto')
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'], client=client)
        topology = networks_client.show_resource(uri)
        return body, topology['auto_allocated_topology']['id']

    def _rich_burial(self):
        """A server buried in cell0 with everything a create can ask for.

        The NICs of ``_requested_nics`` (with a network service), a data
        volume (with a volume service), trusted image certificates (where
        the cloud declares them), tags, a keypair, user data, a config
        drive, metadata and a description.

        :returns: a namespace: ``server``, ``trigger``, ``image``,
                  ``expected`` (what show must give), ``tags``, ``volume``
                  and ``nics`` (what ``_network_problems`` expects; None
                  without a network service).
        """
        networks = nics = volume = None
        extra = {}
        image = CONF.compute.image_ref
        if not features.trusted_certs():
            image = CONF.compute.certified_image_ref
            extra['trusted_image_certificates'] = list(
                CONF.compute.certified_image_trusted_certs)
        if not features.networks():
            networks, nics = self._requested_nics()
        if not features.volumes():
            volume = self.create_volume()
            extra['block_device_mapping_v2'] = [
                {'uuid': image, 'source_type': 'image',
                 'destination_type': 'local', 'boot_index': 0,
                 'delete_on_termination': True},
                {'uuid': volume['id'], 'source_type': 'volume',
                 'destination_type': 'volume',
                 'delete_on_termination': False}]
        user_data = base64.b64encode(b'#!/bin/sh\necho buried\n').decode()
        wanted = {
            'name': data_utils.rand_name(name='cell0-reburied',
                                         prefix=CONF.resource_name_prefix),
            'description': 'kept across two burials',
            'metadata': {'purpose': 'reburial'},
            'key_name': self.create_keypair(),
        }
        tags = ['reburied-a', 'reburied-b']
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, image=image,
                           networks=networks, tags=tags, user_data=user_data,
                           config_drive=True, **dict(wanted, **extra))
        first = self.show(server['id'], self.rebuild_mv)
        expected = dict(wanted)
        expected['OS-EXT-SRV-ATTR:user_data'] = user_data
        expected['config_drive'] = first.get('config_drive')
        if 'trusted_image_certificates' in extra:
            expected['trusted_image_certificates'] = extra[
                'trusted_image_certificates']
        return types.SimpleNamespace(
            server=server, trigger=trigger, image=image, expected=expected,
            tags=tags, volume=volume, nics=nics)

    def _kept_problems(self, rich, when):
        """What a server of ``_rich_burial`` buried again no longer shows."""
        second = self.show(rich.server['id'], self.rebuild_mv)
        problems = checks.differences(rich.expected, second, when)
        problems.extend(self._tag_problems(second, rich.tags, when))
        if rich.volume:
            held = [v['id'] for v in
                    second.get('os-extended-volumes:volumes_attached') or []]
            if held != [rich.volume['id']]:
                problems.append('%svolumes attached: expected [%r], got %s'
                                % (when, rich.volume['id'], held))
        if rich.nics:
            device = self.os_admin.ports_client.show_port(
                rich.nics['port'])['port']['device_id']
            if device:
                problems.append('%srequested port %s: expected unbound, got '
                                'device_id %r' % (when, rich.nics['port'],
                                                  device))
        return problems

    def _restored_problems(self, rich, when):
        """What a server of ``_rich_burial`` rebuilt to ACTIVE lacks."""
        server_id = rich.server['id']
        after = self.show(server_id, self.rebuild_mv)
        problems = checks.differences(rich.expected, after, when)
        problems.extend(self._tag_problems(after, rich.tags, when))
        problems.extend(self.allocation_problems(server_id, when))
        if rich.nics:
            problems.extend(self._network_problems(server_id, rich.nics,
                                                   when))
        if rich.volume:
            volume_id = rich.volume['id']
            attached = [a['volumeId'] for a in
                        self.owner_servers.list_volume_attachments(
                            server_id)['volumeAttachments']]
            state = self.os_admin.volumes_client_latest.show_volume(
                volume_id)['volume']
            holders = [a['server_id'] for a in state['attachments']]
            if (attached, state['status'], holders) != (
                    [volume_id], 'in-use', [server_id]):
                problems.append(
                    '%sdata volume %s: expected attached and in-use by the '
                    'server, got attachments %s, status %s, held by %s' % (
                        when, volume_id, attached, state['status'],
                        holders))
        return problems

    @staticmethod
    def _tag_problems(body, tags, when):
        got = body.get('tags')
        if sorted(got or []) != sorted(tags):
            return ['%stags: expected %s, got %s' % (when, sorted(tags), got)]
        return []

    def _create_image(self):
        """A private image of the owner with properties of its own.

        Deleted at cleanup (after the test's servers).  Returns the image
        and the properties, standard ones that a server shows in
        ``image.properties`` from microversion 2.98.
        """
        images = self.os_primary.image_client_v2
        marker = {'os_distro': data_utils.rand_name('cell0distro'),
                  'os_admin_user': data_utils.rand_name('cell0admin')}
        image = images.create_image(
            name=data_utils.rand_name(
                name=self.__class__.__name__ + '-image',
                prefix=CONF.resource_name_prefix),
            container_format='bare', disk_format='raw',
            visibility='private', **marker)
        self.addCleanup(images.wait_for_resource_deletion, image['id'])
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        images.delete_image, image['id'])
        images.store_image_file(image['id'], io.BytesIO(b'\0' * 1024))
        try:
            polling.poll(lambda: images.show_image(image['id'])['status'],
                         lambda status: status == 'active',
                         CONF.image.build_timeout,
                         waiters.poll_interval(CONF.image),
                         what='image %s' % image['id'], describe=str)
        except polling.PollTimeout as exc:
            self.fail('Image %s of the test did not become active: %s' % (
                image['id'], exc.value))
        return image, marker


class Cell0RebuildTest(Cell0RebuildBase):
    """Cell0 rebuilds that need nothing beyond the feature itself."""

    @decorators.idempotent_id('63eb0c5f-1e77-4d13-a155-6f8acf7d1868')
    @markers.requirements('RB-01', 'RB-03', 'RB-30')
    def test_rebuild_server_without_network(self):
        """A server booted with networks "none" (2.37) is rebuilt without.

        The project has the class network, so a rebuild that forgot
        "none" would attach the server to it: after the rebuild the server
        has no port and no address.
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, networks='none')
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])
        problems = []
        if self.network:
            ports = self.os_admin.ports_client.list_ports(
                device_id=server['id'])['ports']
            if ports:
                problems.append('ports: expected none, got %s on networks '
                                '%s' % ([p['id'] for p in ports],
                                        [p['network_id'] for p in ports]))
        if checks.addresses_of(body):
            problems.append('addresses: expected none, got %s' %
                            body.get('addresses'))
        self.assertEqual([], problems, 'Server %s booted with networks '
                         '"none", after the cell0 rebuild' % server['id'])

    @decorators.idempotent_id('b491212f-8aeb-4811-a328-188c248d493c')
    @markers.requirements('RB-02', 'RB-03')
    def test_rebuild_error_server(self):
        """An ERROR server buried by NoValidHost is rebuilt, same ID.

        With use_pending_state off the burial gives ERROR; with it on, the
        PENDING server is first reset to ERROR (still buried by NoValidHost,
        interp-rebuild-eligibility).
        """
        trigger, server = self._buried()
        if CONF.nova_conformance.pending_state_enabled:
            self.admin_servers.reset_state(server['id'], state='error')
            self.assert_state(self.show(server['id']), ('ERROR', 'error'),
                              'after os-resetState error')
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])

    @decorators.idempotent_id('3e0f502e-c855-4f73-9b2f-3a1a05680037')
    @markers.requirements('RB-04', 'RB-07', 'RB-08', 'RB-17', 'RB-25')
    def test_rebuild_keeps_attributes(self):
        """What the create request set is kept by the cell0 rebuild.

        Tags, key_name, metadata, name, description, user data, config
        drive.  From microversion 2.90 the rebuild request sets a hostname
        (nothing else), which the server then shows.
        """
        key_name = self.create_keypair()
        user_data = base64.b64encode(b'#!/bin/sh\necho cell0\n').decode()
        wanted = {
            'name': data_utils.rand_name(name='cell0-kept',
                                         prefix=CONF.resource_name_prefix),
            'description': 'kept across the cell0 rebuild',
            'metadata': {'purpose': 'cell0', 'kept': 'yes'},
            'key_name': key_name,
        }
        tags = ['cell0-a', 'cell0-b']
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, tags=tags,
                           user_data=user_data, config_drive=True, **wanted)
        before = self.show(server['id'], self.rebuild_mv)
        trigger.add_capacity()
        request = {}
        if microversions.at_least(self.rebuild_mv,
                                  microversions.HOSTNAME_MICROVERSION):
            request['hostname'] = data_utils.rand_name(
                name='cell0-rebuilt-host').lower()
        self.rebuild_to_active(server['id'], **request)
        after = self.show(server['id'], self.rebuild_mv)
        expected = dict(wanted)
        expected['OS-EXT-SRV-ATTR:user_data'] = user_data
        if request:
            expected['OS-EXT-SRV-ATTR:hostname'] = request['hostname']
        # config_drive as nova reports it for this server before the
        # rebuild ("True" for a requested config drive).
        expected['config_drive'] = before.get('config_drive')
        problems = checks.differences(expected, after,
                                      'after the cell0 rebuild: ')
        if not before.get('config_drive'):
            problems.append('config_drive before the rebuild: expected a '
                            'config drive, got %r' %
                            before.get('config_drive'))
        if sorted(after.get('tags') or []) != sorted(tags):
            problems.append('after the cell0 rebuild: tags: expected %s, got '
                            '%s' % (sorted(tags), after.get('tags')))
        self.assertEqual([], problems)

    @decorators.idempotent_id('767bbeb4-5bd5-4af0-bb56-1ac7b1501745')
    @markers.requirements('RB-24', 'RB-25', 'RB-26')
    def test_rebuild_request_applied_rest_kept(self):
        """The rebuild request's image and attributes apply, the rest stays.

        Created with one image, name, description, metadata, keypair, user
        data, access IPv4 and IPv6 and disk config, and with a hostname
        (from 2.90), tags and a config drive; rebuilt with an image of the
        test (its own properties) and new values for the first group.  The
        server then shows the new image and its properties, the new values
        (metadata replaced, not merged), and the hostname, tags and config
        drive unchanged.
        """
        image, marker = self._create_image()
        old_key, new_key = self.create_keypair(), self.create_keypair()
        created = {
            'name': data_utils.rand_name(name='cell0-created',
                                         prefix=CONF.resource_name_prefix),
            'description': 'set at create, not in the rebuild request',
            'metadata': {'created': 'yes', 'shared': 'created'},
            'key_name': old_key,
            'user_data': base64.b64encode(b'created').decode(),
            'accessIPv4': '192.0.2.10',
            'accessIPv6': '2001:db8::10',
            'OS-DCF:diskConfig': 'MANUAL',
        }
        hostname = None
        if microversions.at_least(self.rebuild_mv,
                                  microversions.HOSTNAME_MICROVERSION):
            hostname = data_utils.rand_name(name='cell0-host').lower()
            created['hostname'] = hostname
        tags = ['cell0-kept-a', 'cell0-kept-b']
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, tags=tags,
                           config_drive=True, **created)
        before = self.show(server['id'], self.rebuild_mv)
        trigger.add_capacity()
        changes = {
            'name': data_utils.rand_name(name='cell0-rebuilt',
                                         prefix=CONF.resource_name_prefix),
            'description': 'set by the rebuild request',
            'metadata': {'rebuilt': 'yes', 'shared': 'rebuilt'},
            'key_name': new_key,
            'user_data': base64.b64encode(b'rebuilt').decode(),
            'accessIPv4': '192.0.2.20',
            'accessIPv6': '2001:db8::20',
            'OS-DCF:diskConfig': 'AUTO',
        }
        self.rebuild_to_active(server['id'], image=image['id'], **changes)
        after = self.show(server['id'], self.rebuild_mv)
        applied = dict(changes)
        applied['OS-EXT-SRV-ATTR:user_data'] = applied.pop('user_data')
        kept = {'config_drive': before.get('config_drive')}
        if hostname:
            # Renamed, the server keeps the hostname it was created with
            # (test_rebuild_keeps_attributes sets one in the request).
            kept['OS-EXT-SRV-ATTR:hostname'] = hostname
        problems = checks.differences(
            applied, after, 'set by the cell0 rebuild request: ')
        problems.extend(checks.differences(
            kept, after, 'not in the cell0 rebuild request, kept: '))
        problems.extend(self._tag_problems(
            after, tags, 'not in the cell0 rebuild request, kept: '))
        shown = after.get('image') or {}
        if shown.get('id') != image['id']:
            problems.append('image of the rebuilt server: expected the '
                            'requested %s, got %s (created with %s)' % (
                                image['id'], shown.get('id'),
                                CONF.compute.image_ref))
        elif microversions.at_least(
                self.rebuild_mv, microversions.IMAGE_PROPERTIES_MICROVERSION):
            properties = shown.get('properties') or {}
            for key in sorted(marker):
                if properties.get(key) != marker[key]:
                    problems.append(
                        'image.properties %s of the rebuilt server: expected '
                        '%r (the requested image), got %r' % (
                            key, marker[key], properties.get(key)))
        self.assertEqual([], problems)

    @decorators.idempotent_id('c2a9e4f1-5d3b-4a7e-b8c6-0f1e2d3c4b5a')
    @markers.requirements('RB-43')
    def test_rebuild_server_created_with_personality(self):
        """A server created with personality files (2.56): never a 500.

        The cell0 rebuild is accepted and the server ends ACTIVE, or it
        is refused with a 4xx naming the personality; nova keeps no file
        of a buried server (interp-personality).
        """
        self.require_microversions('2.56')
        trigger = self.novalidhost_trigger()
        contents = base64.b64encode(b'cell0 personality\n').decode()
        server = self.bury(trigger, version='2.56', personality=[
            {'path': '/etc/cell0-rebuild', 'contents': contents}])
        trigger.add_capacity()
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        if code == 202:
            self.wait_status(server['id'], 'ACTIVE')
        elif not (code and 400 <= code < 500
                  and 'personality' in detail.lower()):
            self.fail('Cell0 rebuild of server %s, created with personality '
                      'files at 2.56: expected 202 (then ACTIVE) or a 4xx '
                      'naming the personality, got %s' % (
                          server['id'], checks.describe_outcomes([outcome])))

    @decorators.idempotent_id('fffdf3b7-89bf-42ba-a2d2-b6813a8b8dd1')
    @markers.requirements('RB-32', 'RB-33', 'RB-23')
    def test_second_burial_keeps_everything(self):
        """Buried again by a rebuild without capacity, nothing is lost.

        The server of ``_rich_burial``; a cell0 rebuild without capacity
        buries it again: it shows all of it (the volume attached, the port
        free).  Rebuilt once there is capacity, with the request body
        ``{"imageRef": ..., "description": null}``, it has all of it back,
        and no description.
        """
        rich = self._rich_burial()
        self.rebuild(rich.server['id'], image=rich.image)
        body = self.wait_status(rich.server['id'], waiters.TERMINAL)
        self.assert_state(body, self.expected_buried(),
                          'after a cell0 rebuild without capacity')
        self.assertEqual([], self._kept_problems(
            rich, 'buried again by a rebuild without capacity: '))
        rich.trigger.add_capacity()
        self.rebuild_to_active(rich.server['id'], image=rich.image,
                               description=None)
        rich.expected['description'] = None
        self.assertEqual([], self._restored_problems(
            rich, 'rebuilt after the second burial: '))


class Cell0RebuildQuotaTest(Cell0RebuildBase):
    """Capacity and quota: what a cell0 rebuild rechecks, what it counts.

    What the conductor rechecks when the rebuild schedules: the capacity
    (still none: buried again) and the quota (lowered after the burial:
    refused); and the quota usage of a server deleted during or after its
    rebuild.  Apart from ``Cell0RebuildTest`` so that the two run on two
    workers (issue 20): together they would hold 11 of the PENDING-off
    leg's 13 tests, on one worker.  The quota each test counts and changes
    is the class's project's (Tempest's credentials are per class), which
    its tests use one after another.
    """

    @decorators.idempotent_id('6dd64cd6-d46f-449f-9266-198198b5f087')
    @markers.requirements('RB-16', 'RB-03')
    def test_rebuild_still_no_capacity(self):
        """No capacity yet: back to PENDING/ERROR, same ID; rebuild again."""
        trigger, server = self._buried()
        response = self.rebuild(server['id'])
        self.assertEqual(server['id'], response['id'])
        body = self.wait_status(server['id'], waiters.TERMINAL)
        self.assertEqual(server['id'], body['id'])
        self.assert_state(body, self.expected_buried(),
                          'after a cell0 rebuild without capacity')
        self.assertIsNone(body.get('OS-EXT-SRV-ATTR:host'),
                          'A server re-buried in cell0 has no host')
        self.assertEqual([], self.allocation_problems(
            server['id'], 'buried again: '))
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])

    def _quota_recheck(self, resource):
        """Quota lowered after burial: the rebuild does not build it.

        In each quota counting mode the cloud serves (its own, then each
        of ``[nova_conformance] quota_counting_services`` through that
        nova-api), one after another: the owner's ``resource`` quota is
        set one short of what its other servers use (counted before the
        burial) and the buried server needs, a real limit rather than 0
        (restored at cleanup; a Keystone project limit where the quota is
        counted with unified limits): the conductor counts the server,
        whatever the counting mode (interp-quota-recheck), and refuses it;
        it stays in cell0 (ERROR, the quota fault), usage does not grow
        past the quota, and it can be rebuilt once the quota allows it
        again.
        """
        countings = features.quota_countings()
        for mode, service in countings:
            counted = 'counted by %s%s' % (
                mode, '' if service is None else
                ', nova-api of service type %s' % service)
            try:
                self._quota_recheck_in(resource, mode, service, counted)
            except self.failureException as exc:
                if len(countings) == 1:
                    raise
                # Whichever step failed (the burial, a refused request, the
                # rebuild once the quota is back): name the mode and its
                # endpoint.
                raise self.failureException('%s quota recheck %s: %s' % (
                    resource, counted, exc))

    def _counting_clients(self, service):
        """(owner's servers client, admin's quota sets client) of a service.

        ``service``: a compute service type of the cloud, or None for the
        cloud's own compute endpoint.
        """
        if service is None:
            return self.owner_servers, self.admin_quotas
        return (self.servers_clients_of(service)['owner_member'],
                self.os_admin.compute.QuotasClient(service=service))

    def _quota_recheck_in(self, resource, mode, service, counted):
        owner, quotas = self._counting_clients(service)
        # Settled: a server a previous test deleted no longer counts (a
        # limit read while its delete is in flight is one server too high).
        others = self.others_usage(resource, quotas=quotas, servers=owner)
        trigger, server = self._buried(client=owner)
        need = self.need(server['id'], resource)
        # A real limit: one short of the owner's other servers and this
        # one, counted before the burial (in every mode the buried server
        # then counts in full against it).
        limit = others + need - 1
        when = (' (%s quota %d: %d used by the other servers, %d needed, '
                '%s)' % (resource, limit, others, need, counted))
        in_use_before = self.usage(resource, quotas=quotas)[1]
        restore = self.set_quota(mode=mode, quotas=quotas,
                                 **{resource: limit})
        trigger.add_capacity()
        response = self.rebuild(server['id'], client=owner)
        self.assertEqual(server['id'], response['id'])
        # ACTIVE ends the wait too: a cloud that builds the server anyway
        # fails at once, naming the host, not after a build timeout.
        body = self.wait_status(server['id'], waiters.TERMINAL | {'ACTIVE'})
        limit, in_use = self.usage(resource, quotas=quotas)
        problems = []
        if body.get('OS-EXT-SRV-ATTR:host'):
            problems.append('the server was built on %s although the quota '
                            'did not allow it%s' % (
                                body['OS-EXT-SRV-ATTR:host'], when))
        overrun = checks.quota_overrun(resource, limit, in_use_before,
                                       in_use)
        if overrun:
            problems.append(overrun + when)
        if body['status'] != 'ERROR':
            problems.append('status after the refused rebuild%s: expected '
                            'ERROR (quota fault, interp-quota-recheck), got '
                            '%s' % (when, waiters.describe(body)))
        problems.extend(self.allocation_problems(
            server['id'], 'refused by the quota%s: ' % when))
        self.assertEqual([], problems)
        # Quota back: the same server can be rebuilt.
        restore()
        self.rebuild_to_active(server['id'], client=owner)
        self._check_rebuilt(server['id'])

    @decorators.idempotent_id('0e3f8d2a-6c41-4b8e-9f0a-7d2c5b1e4a93')
    @markers.requirements('RB-39')
    def test_quota_reburial_keeps_everything(self):
        """Buried again by a rebuild the quota refused, nothing is lost.

        The server of ``_rich_burial``; capacity comes back, but the
        owner's cores quota is set one core short of what the owner's
        other servers (counted before the burial) and this one need: a
        real limit, not 0.  The cell0 rebuild is refused by the quota and
        buries the server again (ERROR): it shows all it had (the volume
        attached, the port free).  With the quota back, a cell0 rebuild
        restores all of it.
        """
        others = self.others_usage('cores')
        rich = self._rich_burial()
        vcpus = self.need(rich.server['id'], 'cores')
        rich.trigger.add_capacity()
        limit = others + vcpus - 1
        restore = self.set_quota(cores=limit)
        self.rebuild(rich.server['id'], image=rich.image)
        body = self.wait_status(rich.server['id'],
                                waiters.TERMINAL | {'ACTIVE'})
        when = ('buried again by a rebuild the quota refused (cores quota '
                '%d, other servers %d, this one %d): ' % (
                    limit, others, vcpus))
        problems = []
        if body['status'] != 'ERROR' or body.get('OS-EXT-SRV-ATTR:host'):
            problems.append('%sexpected ERROR and no host, got %s on host '
                            '%r' % (when, waiters.describe(body),
                                    body.get('OS-EXT-SRV-ATTR:host')))
        # nova saves the state before it records the fault.
        try:
            fault = polling.poll(
                lambda: (self.show(rich.server['id']).get('fault') or {}).get(
                    'message') or '',
                lambda message: 'Quota exceeded' in message, 30,
                waiters.poll_interval(), what='quota fault', describe=repr)
        except polling.PollTimeout as exc:
            fault = exc.value
        if 'Quota exceeded' not in fault:
            problems.append('%sfault: expected nova\'s quota fault (Quota '
                            'exceeded ...), got %r' % (when, fault))
        problems.extend(self.allocation_problems(rich.server['id'], when))
        self.assertEqual([], problems + self._kept_problems(rich, when))
        restore()
        self.rebuild_to_active(rich.server['id'], image=rich.image)
        self.assertEqual([], self._restored_problems(
            rich, 'rebuilt after the quota refusal: '))

    @decorators.attr(type='slow')
    @decorators.idempotent_id('f9673548-b550-4e2f-ba0d-d5d0d5ed669b')
    @markers.requirements('RB-11')
    def test_rebuild_quota_recheck(self):
        """The cores quota no longer allows the buried server."""
        self._quota_recheck('cores')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('0b6f7e53-54c9-4a55-8f43-6f0f1d9c2e71')
    @markers.requirements('RB-11')
    def test_rebuild_quota_recheck_instances(self):
        """The instances quota no longer allows the buried server."""
        self._quota_recheck('instances')

    @decorators.attr(type='slow')
    @decorators.idempotent_id('5d1e2a0c-7a2f-4d57-9b8e-2c3f4a6e9d18')
    @markers.requirements('RB-11')
    def test_rebuild_quota_recheck_ram(self):
        """The RAM quota no longer allows the buried server."""
        self._quota_recheck('ram')

    @decorators.idempotent_id('a1cfc95d-a0da-4f83-a8aa-bd88a4a9800d')
    @markers.requirements('RB-18')
    def test_delete_during_rebuild(self):
        """Deleting while the cell0 rebuild runs leaves nothing behind."""
        trigger, server = self._buried()
        in_use_before = self.usage('instances')[1]
        trigger.add_capacity()
        self.rebuild(server['id'])
        self.delete_leaving_nothing(server['id'])
        self.assertEqual(in_use_before - 1, self.usage('instances')[1],
                         'instances in_use after deleting the server during '
                         'its cell0 rebuild')

    @decorators.idempotent_id('4389f17c-111c-47b9-a3dd-92d0ca0428c7')
    @markers.requirements('RB-18', 'RB-13')
    def test_delete_after_rebuild(self):
        """Deleting after a failed and after a successful cell0 rebuild."""
        trigger, failed = self._buried()
        rebuilt = self.bury(trigger)
        in_use_before = self.usage('instances')[1]
        self.rebuild(failed['id'])
        self.wait_status(failed['id'], waiters.TERMINAL)
        trigger.add_capacity()
        self.rebuild_to_active(rebuilt['id'])
        problems = []
        for label, server in (('failed', failed), ('successful', rebuilt)):
            self.owner_servers.delete_server(server['id'])
            waiters.wait_for_server_deletion(self.admin_servers,
                                             server['id'])
            problems.extend('after a %s cell0 rebuild: %s' % (label, p)
                            for p in self.leftovers(server['id']))
            count = self._deleted_records(server['id'])
            if count != 1:
                problems.append(
                    'after a %s cell0 rebuild: deleted records of %s: '
                    'expected exactly 1 (earlier cell0 records hard '
                    'deleted), got %d' % (label, server['id'], count))
        in_use = self.usage('instances')[1]
        if in_use != in_use_before - 2:
            problems.append('instances in_use: expected %d, got %d' % (
                in_use_before - 2, in_use))
        self.assertEqual([], problems)


class Cell0RebuildPendingTest(Cell0RebuildBase):
    """The rebuild of a PENDING server (use_pending_state on)."""

    required_features = (features.pending_enabled,
                         features.cell0_rebuild)

    @decorators.idempotent_id('15769485-1bcd-4200-a820-6e371cd19e73')
    @markers.requirements('RB-01', 'RB-03', 'RB-13', 'PEND-10')
    def test_rebuild_pending_server(self):
        """PENDING -> rebuild (BUILD) -> ACTIVE, same ID, on a healthy host.

        Right after the 202 (interp-hard-delete) no deleted record of the
        server exists: a cell0 record soft-deleted when the rebuild starts
        would be one.  (A listing cannot tell more: nova lists a server
        once whatever copies of it exist.)
        """
        trigger, server = self._buried()
        trigger.add_capacity()
        response = self.rebuild(server['id'])
        deleted = self._deleted_records(server['id'])
        self.assertEqual(0, deleted,
                         'Deleted records of server %s right after its cell0 '
                         'rebuild was accepted: expected none (the cell0 '
                         'record is hard deleted when the rebuild starts), '
                         'got %d' % (server['id'], deleted))
        self.assertEqual(server['id'], response['id'])
        body = self.wait_status(server['id'], 'ACTIVE')
        self.assertEqual(server['id'], body['id'])
        self._check_rebuilt(server['id'])


class Cell0RebuildMicroversionTest(Cell0RebuildBase):
    """Below the cell0 rebuild microversion: refused.

    Runs on any cloud with a NoValidHost trigger, with or without the
    feature (at the maximum microversion without it).
    """

    required_features = (features.novalidhost,)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a3c10af1-dac4-4eb2-81e5-2234a1f53b50')
    @markers.requirements('RB-10')
    def test_rebuild_below_microversion_conflict(self):
        """Below the rebuild microversion: 409, the server is unchanged.

        Capacity exists, so only the microversion stops the rebuild.  On a
        cloud without the feature this runs at the maximum microversion.
        """
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        if self.rebuild_mv:
            version = microversions.previous_microversion(self.rebuild_mv)
        else:
            version = CONF.compute.max_microversion
        trigger.add_capacity()
        before = self.show(server['id'])
        try:
            response = self.rebuild(server['id'], version=version,
                                    accepted=False)
        except lib_exc.Conflict:
            pass
        else:
            self.fail('Rebuild of cell0 server %s at %s: expected 409 '
                      'Conflict, got a %s server' % (
                          server['id'], version, response.get('status')))
        self.assertEqual([], checks.changed(
            before, self.show(server['id']), 'after the 409: '))


class Cell0RebuildNetworksTest(Cell0RebuildBase):
    """The NICs requested at boot, across the cell0 rebuild."""

    required_features = (features.cell0_rebuild, features.networks)

    @decorators.idempotent_id('4c484930-2cac-4583-91a1-8a4cdb58a647')
    @markers.requirements('RB-09', 'RB-27', 'RB-28', 'RB-29')
    def test_rebuild_keeps_requested_networks(self):
        """The rebuilt server has the NICs requested at boot, in each form.

        The same pre-created port (bound to the server, its address shown),
        the same fixed IP, a port on the network requested by ID, and
        nothing on the project's other network (``_requested_nics``).
        """
        networks, expect = self._requested_nics()
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           networks=networks)
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        self.assertEqual([], self._network_problems(
            server['id'], expect, 'after the cell0 rebuild: '))


class Cell0RebuildCreateRequestTest(Cell0RebuildBase):
    """What else the create request asked for, through a cell0 rebuild.

    A security group of the owner's and a tagged NIC.
    """

    required_features = (features.cell0_rebuild, features.networks)

    @decorators.idempotent_id('b7d3c1e5-2a4f-4e8b-9c6d-1f0a3e5b7c92')
    @markers.requirements('RB-41')
    def test_rebuild_keeps_security_group_and_nic_tag(self):
        """The security group and the NIC tag of the create request.

        The server is created with a security group of the owner's (by
        name) and a NIC tagged on the class network.  Rebuilt from cell0,
        its port has that group and not the default one, the server
        shows it, and os-interface (2.70) shows the NIC's tag.
        """
        group = self.create_security_group()
        name = group['name']
        tag = 'cell0-nic'
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           networks=[{'uuid': self.network['id'],
                                      'tag': tag}],
                           security_groups=[{'name': name}])
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        problems = []
        ports = self.os_admin.ports_client.list_ports(
            device_id=server['id'])['ports']
        held = [sorted(p['security_groups']) for p in ports]
        if held != [[group['id']]]:
            problems.append('security groups of the ports of the rebuilt '
                            'server: expected one port with only %s (%s), '
                            'got %s' % (group['id'], name, held))
        shown = sorted(g['name'] for g in body.get('security_groups') or [])
        if shown != [name]:
            problems.append('security_groups the rebuilt server shows: '
                            'expected [%r], got %s' % (name, shown))
        # os-interface shows tags from 2.70.
        with self.at(self.rebuild_mv if microversions.at_least(
                self.rebuild_mv, '2.70') else '2.70'):
            interfaces = self.os_primary.interfaces_client.list_interfaces(
                server['id'])['interfaceAttachments']
        tags = [i.get('tag') for i in interfaces]
        if tags != [tag]:
            problems.append('tags of the interfaces of the rebuilt server '
                            '(os-interface): expected [%r], got %s' % (
                                tag, tags))
        self.assertEqual([], problems)


class Cell0RebuildGroupHintsBase(Cell0RebuildBase):
    """Servers read with ``group_hints.servers_client_of``.

    nova shows a member's ``scheduler_hints.group`` as a list from 2.100,
    which Tempest's schemas type as a string.
    """

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.owner_servers = group_hints.servers_client_of(cls.os_primary)
        cls.admin_servers = group_hints.servers_client_of(cls.os_admin)
        cls.persona_servers['owner_member'] = cls.owner_servers
        cls.persona_servers['admin'] = cls.admin_servers


class Cell0RebuildServerGroupTest(Cell0RebuildGroupHintsBase):
    """The server group of the create request, through a cell0 rebuild."""

    @decorators.idempotent_id('4f8e2d6a-9b1c-4c3e-8a7d-5e2b0c9f1a64')
    @markers.requirements('RB-42')
    def test_rebuild_honours_anti_affinity(self):
        """A server group's anti-affinity holds through the rebuild.

        The buried server and a second member are in one anti-affinity
        group; capacity appears on one host only, and the member takes
        it.  The cell0 rebuild then finds no host the policy allows: the
        server is buried again, no host.  Once the member is deleted,
        the same server is rebuilt on that host.
        """
        group = self.server_group('anti-affinity')
        hints = {'group': group['id']}
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, scheduler_hints=hints)
        trigger.add_capacity()
        member = self.boot(trigger.flavor['id'], scheduler_hints=hints)
        member = self.wait_status(member['id'], 'ACTIVE')
        self.rebuild(server['id'])
        self._assert_buried_again(
            server['id'], 'whose only host with capacity (%s) holds another '
            'member of its anti-affinity group'
            % member.get('OS-EXT-SRV-ATTR:host'))
        self.owner_servers.delete_server(member['id'])
        waiters.wait_for_server_deletion(self.admin_servers, member['id'])
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(member.get('OS-EXT-SRV-ATTR:host'),
                         body.get('OS-EXT-SRV-ATTR:host'),
                         'Host of the server rebuilt once the other member '
                         'was deleted: expected the host with capacity')


class Cell0RebuildSchedulerHintsTest(Cell0RebuildBase):
    """The different_host hint of the create request."""

    required_features = (features.cell0_rebuild, features.host_hint_filters)

    @decorators.idempotent_id('0f087136-65cd-477d-8a81-87bb050e9c7d')
    @markers.requirements('RB-44')
    def test_rebuild_honours_different_host(self):
        """different_host holds through the rebuild.

        Capacity exists on one host, which holds the server the hint
        names: the rebuild buries the server again.  Once that server is
        deleted, the same server is rebuilt on that host.
        """
        trigger = self.novalidhost_trigger()
        trigger.add_capacity()
        other = self.boot(trigger.flavor['id'])
        other = self.wait_status(other['id'], 'ACTIVE')
        host = other.get('OS-EXT-SRV-ATTR:host')
        server = self.bury(trigger,
                           scheduler_hints={'different_host': [other['id']]})
        self.rebuild(server['id'])
        self._assert_buried_again(
            server['id'], 'whose only host with capacity (%s) holds the '
            'server its different_host hint names' % host)
        self.owner_servers.delete_server(other['id'])
        waiters.wait_for_server_deletion(self.admin_servers, other['id'])
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(host, body.get('OS-EXT-SRV-ATTR:host'),
                         'Host of the server rebuilt once the server its '
                         'different_host hint names was deleted: expected '
                         'the host with capacity')


class Cell0RebuildOtherHostBase(Cell0RebuildGroupHintsBase):
    """Tests that need an admin's server on a host without capacity."""

    required_features = (features.cell0_rebuild, features.host_hint_filters,
                         features.two_computes)

    def server_on_other_host(self):
        """(server, host): an admin's server on a host without capacity.

        Placed with the host of microversion 2.74 on the first enabled, up
        nova-compute that is not the first capacity host.
        """
        capacity_host = features.capacity_hosts()[0]
        with self.at('2.1'):
            services = self.os_admin.services_client.list_services(
                binary='nova-compute')['services']
        others = sorted(s['host'] for s in services
                        if s['host'] != capacity_host and s['state'] == 'up'
                        and s['status'] == 'enabled')
        if not others:
            self.fail('[compute] min_compute_nodes is %d, but os-services '
                      'lists no enabled, up nova-compute other than %s'
                      % (CONF.compute.min_compute_nodes, capacity_host))
        server = self.create_server(
            client=self.admin_servers, flavor=CONF.compute.flavor_ref,
            cleanup=self, version=microversions.REQUESTED_HOST_MICROVERSION,
            networks='none', host=others[0])
        return server, others[0]


class Cell0RebuildSameHostTest(Cell0RebuildOtherHostBase):
    """The same_host hint, on a cloud with a host without capacity."""

    @decorators.idempotent_id('79a4384b-7700-4acd-91ec-7e86c6c4ada3')
    @markers.requirements('RB-44')
    def test_rebuild_honours_same_host(self):
        """same_host holds through the rebuild.

        The hint names a server on a host without capacity (an admin's
        server, placed there with the host of microversion 2.74); capacity
        appears on another host only: the rebuild buries the server again
        instead of building it there.
        """
        capacity_host = features.capacity_hosts()[0]
        other, other_host = self.server_on_other_host()
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger,
                           scheduler_hints={'same_host': [other['id']]})
        trigger.add_capacity(trigger.pick_provider(capacity_host))
        self.rebuild(server['id'])
        self._assert_buried_again(
            server['id'], 'whose same_host hint names a server on %s, '
            'without capacity, while %s has some' % (other_host,
                                                     capacity_host))


class Cell0RebuildAffinityTest(Cell0RebuildOtherHostBase):
    """A server group's affinity, on a cloud with a host without capacity.

    The other member is placed on the host without capacity by the
    same_host hint (to an admin's server placed there at 2.74): the owner
    needs no admin right to place its own server.
    """

    @decorators.idempotent_id('c3b1f2e4-7a5d-4e69-9d08-2f6a1b7c5e93')
    @markers.requirements('RB-47')
    def test_rebuild_honours_affinity(self):
        """A server group's affinity holds through the rebuild.

        The buried server's affinity group has another member, on a host
        without capacity; capacity appears on another host only: the
        rebuild buries the server again instead of building it there.
        Once the member is deleted, the same server is rebuilt on the
        host with capacity.
        """
        capacity_host = features.capacity_hosts()[0]
        group = self.server_group('affinity')
        anchor, other_host = self.server_on_other_host()
        member = self.boot(CONF.compute.flavor_ref, scheduler_hints={
            'group': group['id'], 'same_host': [anchor['id']]})
        member = self.wait_status(member['id'], 'ACTIVE')
        self.assertEqual(other_host, member.get('OS-EXT-SRV-ATTR:host'),
                         'Host of the member created with a same_host hint '
                         'to a server on %s' % other_host)
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, scheduler_hints={'group': group['id']})
        trigger.add_capacity(trigger.pick_provider(capacity_host))
        self.rebuild(server['id'])
        self._assert_buried_again(
            server['id'], 'whose only host with capacity (%s) is not the '
            'host (%s) of the other member of its affinity group'
            % (capacity_host, other_host))
        self.owner_servers.delete_server(member['id'])
        waiters.wait_for_server_deletion(self.admin_servers, member['id'])
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(capacity_host, body.get('OS-EXT-SRV-ATTR:host'),
                         'Host of the server rebuilt once the other member '
                         'of its affinity group was deleted: expected the '
                         'host with capacity')


class Cell0RebuildTrustedCertsTest(Cell0RebuildBase):
    """Trusted image certificates, where the cloud verifies images."""

    required_features = (features.cell0_rebuild,
                         features.trusted_certs)

    @decorators.idempotent_id('a5c04940-8ad5-4927-95d8-4d1744694155')
    @markers.requirements('RB-05')
    def test_rebuild_keeps_trusted_certs(self):
        """Trusted image certificates given at create are kept."""
        certs = CONF.compute.certified_image_trusted_certs
        trigger = self.novalidhost_trigger()
        try:
            server = self.bury(trigger, version=self.rebuild_mv,
                               image=CONF.compute.certified_image_ref,
                               trusted_image_certificates=certs)
        except lib_exc.BadRequest as exc:
            self.fail('Boot with trusted_image_certificates at %s: expected '
                      'the cloud to accept them ([compute] '
                      'certified_image_ref and certified_image_trusted_certs '
                      'say it verifies image signatures), got 400 %s' % (
                          self.rebuild_mv, exc.resp_body))
        trigger.add_capacity()
        self.rebuild_to_active(server['id'],
                               image=CONF.compute.certified_image_ref)
        after = self.show(server['id'], self.rebuild_mv)
        self.assertEqual(sorted(certs),
                         sorted(after.get('trusted_image_certificates') or []),
                         'trusted_image_certificates after the cell0 rebuild')


class Cell0RebuildVolumeTest(Cell0RebuildBase):
    """Volume-backed servers, where the cloud has a volume service."""

    required_features = (features.cell0_rebuild, features.volumes)

    @decorators.idempotent_id('f571f30c-0993-490d-8518-b5fe8338f95c')
    @markers.requirements('RB-06')
    def test_rebuild_boot_from_volume(self):
        """A volume-backed server keeps its root and its data volume.

        The root volume is created from the image, the data volume is
        blank and tagged; both are the owner's.  The tag is read back from
        os-volume_attachments.  After the cell0 rebuild the server
        has exactly those two attached, the root one as its root device;
        deleting the server releases both (delete_on_termination false).
        """
        root = self.create_volume(imageRef=CONF.compute.image_ref)
        data = self.create_volume()
        bdm = [{'boot_index': 0, 'uuid': root['id'],
                'source_type': 'volume', 'destination_type': 'volume',
                'delete_on_termination': False},
               {'uuid': data['id'], 'source_type': 'volume',
                'destination_type': 'volume',
                'delete_on_termination': False, 'tag': DATA_VOLUME_TAG}]
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, image='',
                           block_device_mapping_v2=bdm)
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        self._assert_attached(body, root['id'], {root['id'], data['id']})
        with self.at(microversions.ATTACHMENT_TAG_MICROVERSION):
            attachments = self.owner_servers.list_volume_attachments(
                server['id'])['volumeAttachments']
        self.assertEqual(
            {root['id']: None, data['id']: DATA_VOLUME_TAG},
            dict((a['volumeId'], a.get('tag')) for a in attachments),
            'Tags of the volume attachments after the cell0 rebuild '
            '(os-volume_attachments at %s)'
            % microversions.ATTACHMENT_TAG_MICROVERSION)
        self.delete_server(server['id'])
        volumes = self.os_primary.volumes_client_latest
        for volume in (root, data):
            after = waiters.wait_for_volume_status(
                volumes, volume['id'], ('available', 'in-use'))
            self.assertEqual(
                ('available', []),
                (after['status'], after['attachments']),
                'Volume %s after its rebuilt server was deleted' %
                volume['id'])

    def _refused_for_deleted_volume(self, which):
        """A volume of the server deleted while it waited: a 4xx.

        The server boots from a root volume and has a data volume;
        ``which`` of them (``root`` or ``data``) is force-deleted by admin
        (it is reserved for the buried server).  The rebuild answers a 4xx
        naming the volume (the create API's 400, never a 500, nor a build
        that fails in a cell); the server stays buried, can be deleted,
        and nothing of it is left.
        """
        volumes = {'root': self.create_volume(
            imageRef=CONF.compute.image_ref), 'data': self.create_volume()}
        bdm = [{'boot_index': 0, 'uuid': volumes['root']['id'],
                'source_type': 'volume', 'destination_type': 'volume',
                'delete_on_termination': False},
               {'uuid': volumes['data']['id'], 'source_type': 'volume',
                'destination_type': 'volume',
                'delete_on_termination': False}]
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, image='',
                           block_device_mapping_v2=bdm)
        gone = volumes[which]['id']
        admin_volumes = self.os_admin.volumes_client_latest
        admin_volumes.force_delete_volume(gone)
        waiters.wait_for_volume_deletion(admin_volumes, gone)
        trigger.add_capacity()
        with self.at(self.rebuild_mv):
            outcome = self._rebuild_outcome(server['id'])
        code, _, detail = outcome
        self.assertTrue(
            code is not None and 400 <= code < 500 and gone in detail,
            'Cell0 rebuild of server %s whose %s volume %s was deleted: '
            'expected a 4xx naming the volume, got %s' % (
                server['id'], which, gone,
                checks.describe_outcomes([outcome])))
        after = self.show(server['id'])
        self.assert_state(after, self.expected_buried(),
                          'after the refused rebuild')
        self.delete_leaving_nothing(server['id'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a8e6719b-2b18-40a8-9fe2-cca7c1331043')
    @markers.requirements('RB-37')
    def test_rebuild_refused_for_deleted_root_volume(self):
        """The root volume deleted while the server waited: a 4xx."""
        self._refused_for_deleted_volume('root')

    @decorators.attr(type='negative')
    @decorators.idempotent_id('5f600c88-29e9-4751-a8f7-f9c609d4b5f1')
    @markers.requirements('RB-37')
    def test_rebuild_refused_for_deleted_data_volume(self):
        """A data volume deleted while the server waited: a 4xx."""
        self._refused_for_deleted_volume('data')

    @decorators.idempotent_id('5032cb56-3539-469f-8def-1c8f50e12e77')
    @markers.requirements('RB-06')
    def test_rebuild_boot_from_image_to_volume(self):
        """A root volume still to be created from the image gets created.

        Buried in cell0, the server's root mapping (image to volume,
        delete_on_termination true) has no volume yet: the rebuild creates
        one, attaches it as the root device, and deleting the server
        deletes it.
        """
        bdm = [{'boot_index': 0, 'uuid': CONF.compute.image_ref,
                'source_type': 'image', 'destination_type': 'volume',
                'volume_size': CONF.volume.volume_size,
                'delete_on_termination': True}]
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, image='',
                           block_device_mapping_v2=bdm)
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        attached = body.get('os-extended-volumes:volumes_attached') or []
        self.assertEqual(1, len(attached),
                         'Volumes of the rebuilt server: expected one root '
                         'volume created from the image, got %s' % attached)
        root_id = attached[0]['id']
        self._assert_attached(body, root_id, {root_id})
        volumes = self.os_admin.volumes_client_latest
        root = volumes.show_volume(root_id)['volume']
        self.assertEqual(
            CONF.compute.image_ref,
            (root.get('volume_image_metadata') or {}).get('image_id'),
            'Image of the root volume created by the cell0 rebuild')
        self.delete_server(server['id'])
        waiters.wait_for_volume_deletion(volumes, root_id)

    def _assert_attached(self, body, root_id, expected_ids):
        """The server has exactly ``expected_ids``, ``root_id`` as root."""
        attachments = self.owner_servers.list_volume_attachments(
            body['id'])['volumeAttachments']
        self.assertEqual(sorted(expected_ids),
                         sorted(a['volumeId'] for a in attachments),
                         'Volumes attached to the rebuilt server')
        devices = {a['volumeId']: a.get('device') for a in attachments}
        root_device = body.get('OS-EXT-SRV-ATTR:root_device_name')
        self.assertEqual(root_device, devices[root_id],
                         'Device of the root volume %s: expected the '
                         "server's root device" % root_id)
        volumes = self.os_admin.volumes_client_latest
        for volume_id in expected_ids:
            volume = volumes.show_volume(volume_id)['volume']
            self.assertEqual(
                ('in-use', [body['id']]),
                (volume['status'],
                 [a['server_id'] for a in volume['attachments']]),
                'Volume %s as the volume service reads it' % volume_id)


class Cell0RebuildAutoNetworkTest(Cell0RebuildBase):
    """Networks "auto" (get-me-a-network) across a cell0 rebuild.

    Nova auto-allocates a network only for a project that has none (with
    one, "auto" takes it), so this class's owner has no network: a rebuild
    that forgot "auto" leaves the server without a port, one that kept it
    has Neutron allocate the project's network.
    """

    required_features = (features.cell0_rebuild,
                         features.auto_allocated_network)
    class_network = False

    @decorators.idempotent_id('c3a8e0f4-2d6b-4f1e-9a57-8e1b6d0c4f29')
    @markers.requirements('RB-31')
    def test_rebuild_server_with_auto_network(self):
        """The rebuilt server is on the project's auto-allocated network.

        After the rebuild it has exactly one port, on the network Neutron
        auto-allocated for the project, and an address; the topology is
        deleted at cleanup, after the server.
        """
        body, auto_net = self._rebuilt_auto_network_server()
        nets = [p['network_id'] for p in self.os_admin.ports_client.list_ports(
            device_id=body['id'])['ports']]
        self.assertEqual(
            [auto_net], nets, 'Server %s booted with networks "auto" in a '
            'project without networks, after the cell0 rebuild: networks of '
            "its ports, expected only the project's auto-allocated network"
            % body['id'])
        self.assertTrue(checks.addresses_of(body),
                        'Server %s booted with networks "auto": no address '
                        'after the cell0 rebuild' % body['id'])
