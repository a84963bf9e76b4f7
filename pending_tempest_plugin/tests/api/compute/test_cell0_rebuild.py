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
"""Rebuild of servers buried in cell0 (enable-rebuild-for-instances-in-cell0).

A server is buried with the reversible trait trigger; capacity "appears"
when the trait is added to one compute provider (restored at cleanup).
Rebuilds run as the owner at ``[nova_conformance]
cell0_rebuild_microversion``.  Interpretations cited: interpretation.rst
anchors ``interp-rebuild-eligibility``, ``interp-rebuild-kept``,
``interp-quota-recheck``, ``interp-rebuild-no-capacity``,
``interp-hard-delete``.
"""

import base64

from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests import cell0_base

CONF = config.CONF


class Cell0RebuildTest(cell0_base.Cell0Test):

    def _buried(self, **kwargs):
        self.skip_unless(features.cell0_rebuild())
        trigger = self.novalidhost_trigger()
        return trigger, self.bury(trigger, **kwargs)

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

    @decorators.idempotent_id('15769485-1bcd-4200-a820-6e371cd19e73')
    @markers.requirements('RB-01', 'RB-03', 'RB-13', 'PEND-10')
    def test_rebuild_pending_server(self):
        """PENDING -> rebuild (BUILD) -> ACTIVE, same ID, on a healthy host."""
        self.skip_unless(features.pending_enabled())
        trigger, server = self._buried()
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(server['id'], body['id'])
        self._check_rebuilt(server['id'])

    @decorators.idempotent_id('63eb0c5f-1e77-4d13-a155-6f8acf7d1868')
    @markers.requirements('RB-01', 'RB-03')
    def test_rebuild_server_without_network(self):
        """A server booted with networks "none" (2.37) is rebuilt too."""
        self.skip_unless(features.cell0_rebuild())
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, networks='none')
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])

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

    @decorators.idempotent_id('a3c10af1-dac4-4eb2-81e5-2234a1f53b50')
    @markers.requirements('RB-10')
    def test_rebuild_below_microversion_conflict(self):
        """Below the rebuild microversion: 409, the server is unchanged.

        Capacity exists, so only the microversion stops the rebuild.  On a
        cloud without the feature this runs at the maximum microversion.
        """
        self.skip_unless(features.novalidhost())
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger)
        if self.rebuild_mv:
            version = cell0_base.previous_microversion(self.rebuild_mv)
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
        after = self.show(server['id'])
        expected = dict((k, before.get(k, '<absent>'))
                        for k in cell0_base.UNCHANGED_FIELDS)
        self.assertEqual([], cell0_base.differences(
            expected, after, 'after the 409: '))

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
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])

    @decorators.idempotent_id('3e0f502e-c855-4f73-9b2f-3a1a05680037')
    @markers.requirements('RB-04', 'RB-07', 'RB-08', 'RB-17')
    def test_rebuild_keeps_attributes(self):
        """What the create request set is kept by the cell0 rebuild.

        Tags, key_name, metadata, name, description, user data, config
        drive.
        """
        self.skip_unless(features.cell0_rebuild())
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
        self.rebuild_to_active(server['id'])
        after = self.show(server['id'], self.rebuild_mv)
        expected = dict(wanted)
        expected['OS-EXT-SRV-ATTR:user_data'] = user_data
        # config_drive as nova reports it for this server before the
        # rebuild ("True" for a requested config drive).
        expected['config_drive'] = before.get('config_drive')
        problems = cell0_base.differences(expected, after,
                                          'after the cell0 rebuild: ')
        if not before.get('config_drive'):
            problems.append('config_drive before the rebuild: expected a '
                            'config drive, got %r' %
                            before.get('config_drive'))
        if sorted(after.get('tags') or []) != sorted(tags):
            problems.append('after the cell0 rebuild: tags: expected %s, got '
                            '%s' % (sorted(tags), after.get('tags')))
        self.assertEqual([], problems)

    @decorators.idempotent_id('4c484930-2cac-4583-91a1-8a4cdb58a647')
    @markers.requirements('RB-09')
    def test_rebuild_keeps_requested_networks(self):
        """The rebuilt server's ports are on the network requested at boot."""
        self.skip_unless(features.cell0_rebuild())
        network, _ = self.create_network()
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv,
                           networks=[{'uuid': network['id']}])
        trigger.add_capacity()
        self.rebuild_to_active(server['id'])
        ports = self.os_admin.ports_client.list_ports(
            device_id=server['id'])['ports']
        self.assertTrue(ports, 'Rebuilt server %s: expected a port on the '
                        'requested network %s, got no port' % (
                            server['id'], network['id']))
        self.assertEqual(
            [network['id']] * len(ports), [p['network_id'] for p in ports],
            'Networks of the ports of rebuilt server %s: expected only the '
            'requested network' % server['id'])

    @decorators.idempotent_id('a5c04940-8ad5-4927-95d8-4d1744694155')
    @markers.requirements('RB-05')
    def test_rebuild_keeps_trusted_certs(self):
        """Trusted image certificates given at create are kept."""
        self.skip_unless(features.cell0_rebuild())
        self.skip_unless(features.trusted_certs())
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

    @decorators.idempotent_id('f571f30c-0993-490d-8518-b5fe8338f95c')
    @markers.requirements('RB-06')
    def test_rebuild_boot_from_volume(self):
        """A volume-backed server keeps its root and its data volume.

        The root volume is created from the image, the data volume is
        blank; both are the owner's.  After the cell0 rebuild the server
        has exactly those two attached, the root one as its root device;
        deleting the server releases both (delete_on_termination false).
        """
        self.skip_unless(features.cell0_rebuild())
        self.skip_unless(features.volumes())
        root = self.create_volume(imageRef=CONF.compute.image_ref)
        data = self.create_volume()
        bdm = [{'boot_index': 0, 'uuid': root['id'],
                'source_type': 'volume', 'destination_type': 'volume',
                'delete_on_termination': False},
               {'uuid': data['id'], 'source_type': 'volume',
                'destination_type': 'volume',
                'delete_on_termination': False}]
        trigger = self.novalidhost_trigger()
        server = self.bury(trigger, version=self.rebuild_mv, image='',
                           block_device_mapping_v2=bdm)
        trigger.add_capacity()
        body = self.rebuild_to_active(server['id'])
        self._assert_attached(body, root['id'], {root['id'], data['id']})
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

    @decorators.idempotent_id('5032cb56-3539-469f-8def-1c8f50e12e77')
    @markers.requirements('RB-06')
    def test_rebuild_boot_from_image_to_volume(self):
        """A root volume still to be created from the image gets created.

        Buried in cell0, the server's root mapping (image to volume,
        delete_on_termination true) has no volume yet: the rebuild creates
        one, attaches it as the root device, and deleting the server
        deletes it.
        """
        self.skip_unless(features.cell0_rebuild())
        self.skip_unless(features.volumes())
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

    @decorators.idempotent_id('f9673548-b550-4e2f-ba0d-d5d0d5ed669b')
    @markers.requirements('RB-11')
    def test_rebuild_quota_recheck(self):
        """Quota lowered after burial: the rebuild does not build it.

        The owner's cores quota is set to 0 (forced, restored at cleanup):
        the conductor's recheck refuses the server whatever the counting
        mode (interp-quota-recheck); it stays in cell0 (ERROR), usage does
        not grow past the quota, and it can be rebuilt once the quota
        allows it again.
        """
        if CONF.nova_conformance.quota_counting == 'unified_limits':
            raise self.skipException(
                '[nova_conformance] quota_counting = unified_limits: limits '
                'live in keystone, this test lowers the nova quota set.')
        trigger, server = self._buried()
        in_use_before = self.usage('cores')[1]
        original = self.admin_quotas.show_quota_set(
            self.owner_project_id)['quota_set']['cores']
        self.set_quota(cores=0)
        trigger.add_capacity()
        response = self.rebuild(server['id'])
        self.assertEqual(server['id'], response['id'])
        body = self.wait_status(server['id'], waiters.TERMINAL)
        limit, in_use = self.usage('cores')
        problems = []
        if body.get('OS-EXT-SRV-ATTR:host'):
            problems.append('the server was built on %s although the quota '
                            'did not allow it' % body['OS-EXT-SRV-ATTR:host'])
        overrun = cell0_base.quota_overrun('cores', limit, in_use_before,
                                           in_use)
        if overrun:
            problems.append(overrun)
        if body['status'] != 'ERROR':
            problems.append('status after the refused rebuild: expected '
                            'ERROR (quota fault, interp-quota-recheck), got '
                            '%s' % waiters.describe(body))
        self.assertEqual([], problems)
        # Quota back: the same server can be rebuilt.
        self.admin_quotas.update_quota_set(self.owner_project_id, force=True,
                                           cores=original)
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])

    @decorators.idempotent_id('a1cfc95d-a0da-4f83-a8aa-bd88a4a9800d')
    @markers.requirements('RB-18')
    def test_delete_during_rebuild(self):
        """Deleting while the cell0 rebuild runs leaves nothing behind."""
        trigger, server = self._buried()
        in_use_before = self.usage('instances')[1]
        trigger.add_capacity()
        self.rebuild(server['id'])
        self.owner_servers.delete_server(server['id'])
        waiters.wait_for_server_deletion(self.admin_servers, server['id'])
        self.assertEqual([], self.leftovers(server['id']))
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
