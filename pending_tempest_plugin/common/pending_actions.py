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
"""What each server action of nova 34 answers for a PENDING server.

One source for the test (``PendingStateTest.test_pending_server_actions``)
and for the table of interpretation.rst (section
``interp-pending-actions``), which a unit test compares with it.

Each action is (name, persona, microversion, answer, call):

- ``name``: as the table names it (the action's key, or METHOD path);
- ``persona``: ``owner`` or ``admin`` (the actions policy keeps for admins);
- ``microversion``: the lowest it needs, or None;
- ``answer``: ``allowed`` (2xx), ``state`` (409 naming ``vm_state
  pending``), ``no host`` (409: the instance is not ready, it has no host),
  ``no ports`` (404: nova finds no port of the server to apply a security
  group to), ``same host`` (400: evacuate compares the host the request
  does not name with the host the server does not have);
- ``call(test, persona, server_id)``: the request, through Tempest's
  clients.

The actions the suite checks elsewhere are named in REFERENCED (rebuild,
delete, os-resetState); force delete and restore of a soft-deleted server
are not requested (force delete deletes the server, as delete does).
"""

import json

from oslo_utils import uuidutils
from tempest.lib.common import rest_client

ALLOWED = 'allowed'
STATE = 'state'
NO_HOST = 'no host'
NO_PORTS = 'no ports'
SAME_HOST = 'same host'

ANSWERS = {
    ALLOWED: '2xx, and the server stays PENDING',
    STATE: "409 Conflict naming vm_state pending",
    NO_HOST: '409 Conflict: the instance is not ready (no host)',
    NO_PORTS: '404 Not Found: no port of the server to apply the group to',
    SAME_HOST: ("400 Bad Request: the target host can't be the same one "
                '(the server has none, nor has the request)'),
}

# Checked by other tests (their rows), named in the table:
# name, persona, microversion, answer.
REFERENCED = (
    ('rebuild', 'owner', '2.106',
     'allowed: rebuilt from cell0 (the RB rows)'),
    ('rebuild', 'owner', '',
     ANSWERS[STATE] + ' below 2.106 (interp-rebuild-old-microversion)'),
    ('DELETE /servers/{id}', 'owner', '', 'allowed (PEND-08)'),
    ('os-resetState', 'admin', '', 'allowed (PEND-09)'),
)


def _servers(test, persona):
    return test.admin_servers if persona == 'admin' else test.owner_servers


def _action(method, *args, **kwargs):
    def call(test, persona, server_id):
        return getattr(_servers(test, persona), method)(
            server_id, *args, **kwargs)
    return call


def _resize(test, persona, server_id):
    # To the server's own flavor, which no host can take: a resize wrongly
    # allowed is refused (same flavor) or finds no host, and leaves nothing.
    return _servers(test, persona).resize_server(
        server_id, test.actions_flavor_id)


def _create_image(test, persona, server_id):
    return test.created_image(
        test.os_primary.compute_images_client.create_image(
            server_id, name='pending-actions-image'))


def _create_backup(test, persona, server_id):
    return test.created_image(_servers(test, persona).create_backup(
        server_id, backup_type='daily', rotation=1,
        name='pending-actions-backup'))


def _attach_volume(test, persona, server_id):
    # A volume that does not exist: the state is checked first.
    return _servers(test, persona).attach_volume(
        server_id, volumeId=uuidutils.generate_uuid())


def _attach_interface(test, persona, server_id):
    return test.os_primary.interfaces_client.create_interface(
        server_id, net_id=test.network['id'])


def _list_interfaces(test, persona, server_id):
    return test.os_primary.interfaces_client.list_interfaces(server_id)


def _set_metadata(test, persona, server_id):
    return _servers(test, persona).set_server_metadata_item(
        server_id, 'pending', {'pending': 'actions'})


def _trigger_crash_dump(test, persona, server_id):
    # Its body is {"trigger_crash_dump": null}, which the client's
    # generic action() does not send.
    client = _servers(test, persona)
    resp, body = client.post('servers/%s/action' % server_id,
                             json.dumps({'trigger_crash_dump': None}))
    return rest_client.ResponseBody(resp, body)


def _add_tag(test, persona, server_id):
    return _servers(test, persona).update_tag(server_id, 'pending-actions')


def _remote_console(test, persona, server_id):
    return _servers(test, persona).get_remote_console(
        server_id, console_type='novnc', protocol='vnc')


# name, persona, microversion, answer, call
ACTIONS = (
    ('reboot (SOFT)', 'owner', None, STATE,
     _action('reboot_server', type='SOFT')),
    ('reboot (HARD)', 'owner', None, STATE,
     _action('reboot_server', type='HARD')),
    ('resize', 'owner', None, STATE, _resize),
    ('confirmResize', 'owner', None, STATE,
     _action('confirm_resize_server')),
    ('revertResize', 'owner', None, STATE, _action('revert_resize_server')),
    ('os-stop', 'owner', None, NO_HOST, _action('stop_server')),
    ('os-start', 'owner', None, NO_HOST, _action('start_server')),
    ('pause', 'owner', None, STATE, _action('pause_server')),
    ('unpause', 'owner', None, STATE, _action('unpause_server')),
    ('suspend', 'owner', None, STATE, _action('suspend_server')),
    ('resume', 'owner', None, STATE, _action('resume_server')),
    ('shelve', 'owner', None, STATE, _action('shelve_server')),
    ('shelveOffload', 'admin', None, STATE,
     _action('shelve_offload_server')),
    ('unshelve', 'owner', None, STATE, _action('unshelve_server')),
    ('createImage', 'owner', None, STATE, _create_image),
    ('createBackup', 'owner', None, STATE, _create_backup),
    ('changePassword', 'owner', None, STATE,
     _action('change_password', adminPass='Pending-actions-1')),
    ('rescue', 'owner', None, STATE, _action('rescue_server')),
    ('unrescue', 'owner', None, STATE, _action('unrescue_server')),
    ('trigger_crash_dump', 'owner', '2.17', NO_HOST, _trigger_crash_dump),
    ('os-getConsoleOutput', 'owner', None, NO_HOST,
     _action('get_console_output', length=10)),
    ('POST /servers/{id}/remote-consoles', 'owner', '2.6', NO_HOST,
     _remote_console),
    ('GET /servers/{id}/diagnostics', 'admin', None, NO_HOST,
     _action('show_server_diagnostics')),
    ('migrate', 'admin', None, STATE, _action('migrate_server')),
    ('os-migrateLive', 'admin', '2.25', STATE,
     _action('live_migrate_server', host=None, block_migration='auto')),
    ('evacuate', 'admin', '2.29', SAME_HOST, _action('evacuate_server')),
    ('injectNetworkInfo', 'admin', None, NO_HOST,
     _action('inject_network_info')),
    ('addSecurityGroup', 'owner', None, NO_PORTS,
     _action('add_security_group', name='default')),
    ('removeSecurityGroup', 'owner', None, NO_PORTS,
     _action('remove_security_group', name='default')),
    ('POST /servers/{id}/os-volume_attachments', 'owner', None, STATE,
     _attach_volume),
    ('POST /servers/{id}/os-interface', 'owner', None, STATE,
     _attach_interface),
    ('PUT /servers/{id}/metadata/{key}', 'owner', None, STATE,
     _set_metadata),
    ('PUT /servers/{id}/tags/{tag}', 'owner', '2.26', STATE, _add_tag),
    ('lock', 'owner', None, ALLOWED, _action('lock_server')),
    ('unlock', 'owner', None, ALLOWED, _action('unlock_server')),
    ('PUT /servers/{id} (name)', 'owner', None, ALLOWED,
     _action('update_server', name='pending-actions')),
    ('GET /servers/{id}/os-instance-actions', 'owner', None, ALLOWED,
     _action('list_instance_actions')),
    ('GET /servers/{id}/os-volume_attachments', 'owner', None, ALLOWED,
     _action('list_volume_attachments')),
    ('GET /servers/{id}/os-interface', 'owner', None, ALLOWED,
     _list_interfaces),
    ('GET /servers/{id}/os-server-password', 'owner', None, ALLOWED,
     _action('show_password')),
)

# Actions that need a network of the owner (a cloud with a network
# service); without one they are not requested.
NEEDS_NETWORK = ('POST /servers/{id}/os-interface',)

# What an answer says, beyond its status (part of its message).
MESSAGES = {
    STATE: 'vm_state pending',
    NO_HOST: 'is not ready',
    NO_PORTS: 'could not be found as device id',
    SAME_HOST: "can't be the same",
}

# What an allowed action changes, read in the server afterwards.
AFTER = {
    'lock': {'locked': True},
    'unlock': {'locked': False},
    'PUT /servers/{id} (name)': {'name': 'pending-actions'},
}

# Not requested (the row of the catalogue names them): force delete
# (it deletes the server, as delete does), restore (of a soft-deleted
# server), shares (2.97), volume swap and detach, interface detach, the
# whole-set and DELETE forms of metadata and tags, DELETE
# os-server-password, and the ips and topology reads.


def table_rows():
    """(name, persona, microversion, answer text) of the table, in order."""
    for name, persona, version, answer, _ in ACTIONS:
        yield name, persona, version or '', ANSWERS[answer]
