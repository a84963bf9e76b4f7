#!/usr/bin/env python3
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
"""Misbehaving clouds on demand: mutants of the embedded cloud's nova.

A conformance test that cannot fail proves nothing.  Each mutant below is a
small, deliberate bug in the reference nova installed in the embedded cloud
(one edit of one file in the services' venv, then a restart of the programs
that load it).  ``tools/functional-plugin`` applies each in turn, runs the
tests named for it, requires them to fail with the named message, and
restores nova.

    nova_mutant.py list
    nova_mutant.py show NAME FIELD  # tests, message, requirement, profile
    nova_mutant.py apply NAME
    nova_mutant.py restore          # undo whatever is applied

The original file is kept in ``$AIO_DIR/state/mutant/`` while a mutant is
applied; ``restore`` puts it back byte for byte.  ``apply`` refuses when
another mutant is applied or when the text to change is not found exactly
once (the series changed: the mutant must be updated).
"""

import argparse
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

_COPY_LOOP = (
    "        for bdm in bdms:\n"
    "            values = {field: getattr(bdm, field) for field in "
    "bdm.obj_fields\n"
    "                      if field not in _CELL0_REBUILD_EXCLUDED_BDM_FIELDS"
    " and\n"
    "                      bdm.obj_attr_is_set(field)}\n")

_REBUILD = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_cell0_rebuild\\.Cell0RebuildTest\\.')

_PENDING = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_pending_state\\.PendingStateTest\\.')
_AUTO = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
         'test_cell0_rebuild\\.Cell0RebuildAutoNetworkTest\\.')
_LISTING = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_host_status_listing\\.HostStatusListingTest\\.')

# nova/compute/api.py API.get_instances_host_statuses, stock nova: the
# host_status of every server of a listing, computed once per host.
_HOST_STATUS_CACHE = (
    "                if instance.host not in host_status_dict:\n"
    "                    host_status = self.get_instance_host_status("
    "instance)\n"
    "                    host_status_dict[instance.host] = host_status\n"
    "                else:\n"
    "                    host_status = host_status_dict[instance.host]\n")
_HOST_STATUS_LOOP = (
    "        host_statuses = dict()\n"
    "        for instance in instance_list:\n"
    "            if instance.host:\n"
    "%s"
    "            else:\n"
    "                host_status = fields_obj.HostStatus.NONE\n"
    "            host_statuses[instance.uuid] = host_status\n"
    "        return host_statuses\n") % _HOST_STATUS_CACHE

# The end of compute.API._prepare_cell0_rebuild: the request's attributes
# are applied to the instance rebuilt from cell0.
_APPLY_REQUEST = "        instance.update(kwargs)\n        return image\n"

# compute.API._get_request_spec_for_cell0_rebuild: the requested networks
# are validated again (which sets the network of each requested port).
_VALIDATE_NETWORKS = ("                context, requested_networks, 1) < 1:\n"
                      "            raise exception.PortLimitExceeded()\n")

# conductor: the requested networks of an instance buried in cell0 are
# stored in its request spec.
_PERSIST_NETWORKS = ("        spec.requested_networks = requested_networks\n"
                     "        spec.save(persist_requested_networks=True)\n")
_BURY_NETWORKS = ("                if requested_networks:\n"
                  "                    self._persist_requested_networks(\n")
_BURY_TAGS = ("                self._create_tags(cctxt, instance.uuid, tags)\n"
              "\n" + _BURY_NETWORKS)


def _persist_only(field):
    """_PERSIST_NETWORKS storing the network and ``field`` of each request."""
    return _PERSIST_NETWORKS.replace(
        ' = requested_networks\n',
        ' = objects.NetworkRequestList(objects=[\n'
        '            objects.NetworkRequest(network_id=r.network_id,\n'
        '                                   %s=r.%s)\n'
        '            for r in requested_networks])\n' % (field, field))


_SECOND_BURIAL = _REBUILD + 'test_second_burial_keeps_everything\\['
_REQUEST = _REBUILD + 'test_rebuild_request_applied_rest_kept\\['
_NETWORKS = _REBUILD + 'test_rebuild_keeps_requested_networks\\['

_NOTIFY = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
           'test_notifications\\.NotificationsTest\\.')
# scheduler.utils.set_vm_state_and_notify: the new vm_state is saved (with
# the instance.update notification of Instance.save()), then the versioned
# error notification of the compute task is sent.
_SET_VM_STATE = ("    instance = objects.Instance(context=context, "
                 "uuid=instance_uuid,\n"
                 "                                **updates)\n"
                 "    instance.obj_reset_changes(['uuid'])\n"
                 "    instance.save()\n")
_TASK_ERROR = ("    compute_utils.notify_about_compute_task_error(\n"
               "        context, method, instance_uuid, request_spec, "
               "vm_state, ex)\n")
# conductor.ComputeTaskManager.rebuild_instance_in_cell0: the regular
# schedule-and-build path, once the quota is checked.
_CELL0_REBUILD_BUILD = (
    "        self._schedule_and_build_instances(\n"
    "            context, [build_request], [request_spec], image, "
    "admin_password,\n")

MUTANTS = {
    'rebuild-drops-data-volumes': {
        'requirement': 'RB-06',
        'what': 'the cell0 rebuild keeps only the root block device mapping',
        'file': 'nova/compute/api.py',
        'old': _COPY_LOOP,
        'new': _COPY_LOOP.replace(
            'for bdm in bdms:',
            'for bdm in [b for b in bdms if b.boot_index == 0]:'),
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_boot_from_volume\\[',
        'message': 'Volumes attached to the rebuilt server',
    },
    'rebuild-image-root-not-a-volume': {
        'requirement': 'RB-06',
        'what': 'the cell0 rebuild turns an image-to-volume root disk into '
                'a local disk',
        'file': 'nova/compute/api.py',
        'old': _COPY_LOOP,
        'new': _COPY_LOOP + (
            "            if values.get('source_type') == 'image':\n"
            "                values['destination_type'] = 'local'\n"),
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_boot_from_image_to_volume\\[',
        'message': 'expected one root volume created from the image',
    },
    'rebuild-drops-tags': {
        'requirement': 'RB-07',
        'what': 'the cell0 rebuild forgets the server tags',
        'file': 'nova/compute/api.py',
        'old': "            for tag in tags])\n",
        'new': "            for tag in tags if False])\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_attributes\\[',
        'message': 'after the cell0 rebuild: tags: expected',
    },
    'rebuild-ignores-null-attributes': {
        'requirement': 'RB-23',
        'what': 'the cell0 rebuild ignores attributes the request sets to '
                'null (description: null keeps the description)',
        'file': 'nova/compute/api.py',
        'old': _APPLY_REQUEST,
        'new': _APPLY_REQUEST.replace(
            'instance.update(kwargs)',
            'instance.update({k: v for k, v in kwargs.items()\n'
            '                         if v is not None})'),
        'programs': ['nova-api'],
        'tests': _SECOND_BURIAL,
        'message': 'description: expected None',
    },
    'rebuild-keeps-cell0-image': {
        'requirement': 'RB-24',
        'what': 'the cell0 rebuild keeps the image the server was created '
                'with instead of the requested one',
        'file': 'nova/compute/api.py',
        'old': "            image, auto_disk_config))\n"
               "        if not is_volume_backed:\n"
               "            instance.image_ref = image_href\n",
        'new': "            image, auto_disk_config))\n"
               "        if False:\n"
               "            instance.image_ref = image_href\n",
        'programs': ['nova-api'],
        'tests': _REQUEST,
        'message': 'image of the rebuilt server: expected the requested',
    },
    'rebuild-keeps-cell0-image-properties': {
        'requirement': 'RB-24',
        'what': 'the cell0 rebuild keeps the image properties of the image '
                'the server was created with',
        'file': 'nova/compute/api.py',
        'old': "            if key.startswith(utils.SM_IMAGE_PROP_PREFIX):\n"
               "                del instance.system_metadata[key]\n"
               "        instance.system_metadata.update(\n"
               "            utils.get_system_metadata_from_image(image, "
               "flavor))\n",
        'new': "            pass\n",
        'programs': ['nova-api'],
        'tests': _REQUEST,
        'message': 'image.properties os_',
    },
    'rebuild-merges-metadata': {
        'requirement': 'RB-25',
        'what': 'the cell0 rebuild merges the requested metadata into the '
                'old metadata instead of replacing it',
        'file': 'nova/compute/api.py',
        'old': _APPLY_REQUEST,
        'new': "        if 'metadata' in kwargs:\n"
               "            kwargs['metadata'] = dict(instance.metadata,\n"
               "                                      **kwargs['metadata'])\n"
               + _APPLY_REQUEST,
        'programs': ['nova-api'],
        'tests': _REQUEST,
        'message': 'set by the cell0 rebuild request: metadata: expected',
    },
    'rebuild-renames-hostname': {
        'requirement': 'RB-26',
        'what': 'a cell0 rebuild that renames the server derives a new '
                'hostname from the name, though the request has none',
        'file': 'nova/compute/api.py',
        'old': _APPLY_REQUEST,
        'new': _APPLY_REQUEST.replace(
            '        return image\n',
            "        if 'display_name' in kwargs:\n"
            "            instance.hostname = utils.sanitize_hostname(\n"
            "                kwargs['display_name'])\n"
            "        return image\n"),
        'programs': ['nova-api'],
        'tests': _REQUEST,
        'message': 'kept: OS-EXT-SRV-ATTR:hostname: expected',
    },
    'rebuild-drops-requested-networks': {
        'requirement': 'RB-27',
        'what': 'the cell0 rebuild does not read the persisted requested '
                'networks (as if none had been requested)',
        'file': 'nova/compute/api.py',
        'old': "        if 'requested_networks' in request_spec:\n",
        'new': "        if False:\n",
        'programs': ['nova-api'],
        'tests': _NETWORKS,
        'message': 'expected 202 Accepted, got 409',
    },
    'rebuild-replaces-requested-port': {
        'requirement': 'RB-28',
        'what': 'the cell0 rebuild asks for a new port on the network of '
                'each requested port instead of binding that port',
        'file': 'nova/compute/api.py',
        'old': _VALIDATE_NETWORKS,
        'new': _VALIDATE_NETWORKS + (
            "        for request in requested_networks:\n"
            "            request.port_id = None\n"),
        'programs': ['nova-api'],
        'tests': _NETWORKS,
        'message': 'expected bound to server',
    },
    'persisted-networks-drop-fixed-ip': {
        'requirement': 'RB-29',
        'what': 'the networks persisted at burial keep the network and the '
                'port of each request, not the fixed IP',
        'file': 'nova/conductor/manager.py',
        'old': _PERSIST_NETWORKS,
        'new': _persist_only('port_id'),
        'programs': ['nova-conductor'],
        'tests': _NETWORKS,
        'message': 'of the requested fixed IP: expected',
    },
    'bury-forgets-networks-none': {
        'requirement': 'RB-30',
        'what': 'burial does not persist networks "none" (nothing to '
                'allocate), so the cell0 rebuild picks a network',
        'file': 'nova/conductor/manager.py',
        'old': _BURY_NETWORKS,
        'new': _BURY_NETWORKS.replace(
            'if requested_networks:',
            'if requested_networks and not requested_networks.no_allocate:'),
        'programs': ['nova-conductor'],
        'tests': _REBUILD + 'test_rebuild_server_without_network\\[',
        'message': 'ports: expected none, got',
    },
    'bury-forgets-networks-auto': {
        'requirement': 'RB-31',
        'what': 'burial does not persist networks "auto" (nothing chosen '
                'yet), so the cell0 rebuild of a server in a project '
                'without networks gives it no network',
        'file': 'nova/conductor/manager.py',
        'old': _BURY_NETWORKS,
        'new': _BURY_NETWORKS.replace(
            'if requested_networks:',
            'if requested_networks and not '
            'requested_networks.auto_allocate:'),
        'programs': ['nova-conductor'],
        'tests': _AUTO + 'test_rebuild_server_with_auto_network\\[',
        'message': 'in a project without networks, after the cell0 '
                   'rebuild: networks of its ports',
    },
    'reburial-drops-tags': {
        'requirement': 'RB-32',
        'what': 'a server buried again by a cell0 rebuild without capacity '
                'loses its tags',
        'file': 'nova/conductor/manager.py',
        'old': _BURY_TAGS,
        'new': _BURY_TAGS.replace(
            "                self._create_tags(",
            "                if action == instance_actions.CREATE:\n"
            "                    self._create_tags("),
        'programs': ['nova-conductor'],
        'tests': _SECOND_BURIAL,
        'message': 'buried again by a rebuild without capacity: tags: '
                   'expected',
    },
    'reburial-forgets-networks': {
        'requirement': 'RB-33',
        'what': 'a server buried again by a cell0 rebuild without capacity '
                'loses its requested networks (persisted at the first '
                'burial only)',
        'file': 'nova/conductor/manager.py',
        'old': _BURY_NETWORKS,
        'new': _BURY_NETWORKS.replace(
            'if requested_networks:',
            'if (requested_networks and\n'
            '                        action == instance_actions.CREATE):'),
        'programs': ['nova-conductor'],
        'tests': _SECOND_BURIAL,
        'message': 'expected 202 Accepted, got 409',
    },
    'old-microversion-error-filter-misses-pending': {
        'requirement': 'PEND-14',
        'what': 'below the PENDING microversion, status=ERROR no longer '
                'lists PENDING servers',
        'file': 'nova/api/openstack/common.py',
        'old': "    if pending_as_error and vm_states.ERROR in "
               "found_vm_states:\n",
        'new': "    if False:\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_status_filter\\[',
        'message': 'GET /servers?status=ERROR at 2.104: expected the '
                   'server listed',
    },
    'max-retries-pending': {
        'requirement': 'PEND-03',
        'what': 'with use_pending_state, a build that failed on every host '
                'reads PENDING, as if capacity lacked',
        'file': 'nova/conductor/manager.py',
        'old': "        updates = {'vm_state': vm_states.ERROR,\n"
               "                   'task_state': None}\n"
               "        self._set_vm_state_and_notify(\n"
               "            context, instance.uuid, 'build_instances', "
               "updates, exception,\n",
        'new': "        updates = {'vm_state': (vm_states.PENDING if "
               "CONF.use_pending_state\n"
               "                                else vm_states.ERROR),\n"
               "                   'task_state': None}\n"
               "        self._set_vm_state_and_notify(\n"
               "            context, instance.uuid, 'build_instances', "
               "updates, exception,\n",
        'programs': ['nova-conductor'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_build_failures\\.BuildFailureTest\\.'
                  'test_build_failure_is_error_not_pending\\['),
        'message': 'expected status ERROR / vm_state error, got PENDING',
    },
    'rebuild-never-launched': {
        'requirement': 'RB-12',
        'what': 'the rebuild API lets never-launched servers through (as '
                'if only cell0 servers had never run), so a server whose '
                'build failed everywhere is rebuilt',
        'file': 'nova/compute/api.py',
        'old': "    @check_instance_state(vm_state=[vm_states.ACTIVE, "
               "vm_states.STOPPED,\n"
               "                                    vm_states.ERROR])\n"
               "    def rebuild(self, context, instance, image_href, "
               "admin_password,\n",
        'new': "    @check_instance_state(vm_state=[vm_states.ACTIVE, "
               "vm_states.STOPPED,\n"
               "                                    vm_states.ERROR],\n"
               "                          must_have_launched=False)\n"
               "    def rebuild(self, context, instance, image_href, "
               "admin_password,\n",
        'programs': ['nova-api'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_build_failures\\.BuildFailureTest\\.'
                  'test_build_failure_not_rebuilt_from_cell0\\['),
        'message': 'expected 409 Conflict',
    },
    'pending-fault-hidden': {
        'requirement': 'PEND-18',
        'what': 'a PENDING server is shown without its fault (PENDING is '
                'not one of the fault statuses of the server view)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': '        "ERROR", "DELETED", "PENDING"\n',
        'new': '        "ERROR", "DELETED"\n',
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_server_shows_fault\\[',
        'message': 'fault: expected the NoValidHost fault',
    },
    'host-status-cached-per-zone': {
        'requirement': 'HS-20',
        'what': 'a listing computes host_status once per availability '
                'zone: every server of a zone gets the first one\'s host '
                'state',
        'file': 'nova/compute/api.py',
        'old': _HOST_STATUS_CACHE,
        'new': _HOST_STATUS_CACHE.replace(
            'instance.host', 'instance.availability_zone'),
        'programs': ['nova-api'],
        'tests': _LISTING + 'test_detail_listing_hosts_in_different_states'
                            '\\[',
        'message': 'wrong host_status for persona admin',
    },
    'host-status-first-server-only': {
        'requirement': 'HS-21',
        'what': 'a listing gives host_status to its first server only '
                '(the return of get_instances_host_statuses inside its '
                'loop)',
        'file': 'nova/compute/api.py',
        'old': _HOST_STATUS_LOOP,
        'new': _HOST_STATUS_LOOP.replace(
            '        return host_statuses\n',
            '            return host_statuses\n'),
        'programs': ['nova-api'],
        'tests': _LISTING + 'test_detail_listing_of_several_servers\\[',
        'message': 'under-permission for persona admin',
    },
    'host-status-no-host-takes-previous': {
        'requirement': 'HS-21',
        'what': 'in a listing, a server without a host gets the host_status '
                'of the server listed before it (the empty string is set '
                'once, before the loop)',
        'file': 'nova/compute/api.py',
        'old': _HOST_STATUS_LOOP,
        'new': _HOST_STATUS_LOOP.replace(
            "        for instance in instance_list:\n",
            "        host_status = fields_obj.HostStatus.NONE\n"
            "        for instance in instance_list:\n").replace(
            "            else:\n"
            "                host_status = fields_obj.HostStatus.NONE\n", ''),
        'programs': ['nova-api'],
        'tests': _LISTING + 'test_detail_listing_of_several_servers\\[',
        'message': 'with no host: expected',
    },
    'host-status-unknown-only-per-listing': {
        'requirement': 'HS-22',
        'what': 'under the unknown_only policy, a listing shows every '
                'host_status to the owner as soon as one of its servers is '
                'UNKNOWN (the check made once per listing, not per server)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "                if unknown_only and host_status != "
               "fields.HostStatus.UNKNOWN:\n",
        'new': "                if unknown_only and ("
               "fields.HostStatus.UNKNOWN not in host_statuses.values()):\n",
        'programs': ['nova-api'],
        # Only the owner under this profile sees the difference.
        'profile': 'unknown_only',
        'tests': _LISTING + 'test_detail_listing_host_unknown\\[',
        'message': 'over-permission for persona owner_member under policy '
                   'profile unknown_only',
    },
    'rebuild-drops-trusted-certs': {
        'requirement': 'RB-05',
        'what': 'the cell0 rebuild resets the trusted image certificates '
                'of the buried server with the other per-build fields (as '
                'if a rebuild request without them asked for none)',
        'file': 'nova/compute/api.py',
        'old': "        instance.info_cache = info_cache\n"
               "        instance.old_flavor = None\n",
        'new': "        instance.info_cache = info_cache\n"
               "        instance.trusted_certs = None\n"
               "        instance.old_flavor = None\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_trusted_certs\\[',
        'message': 'trusted_image_certificates after the cell0 rebuild',
    },
    # Notifications (PEND-11, PEND-12, RB-15): their tests read the bus of
    # [nova_conformance] notification_transport_url.
    'notify-pending-no-instance-update': {
        'requirement': 'PEND-11',
        'what': 'a server put in PENDING gets its state written straight '
                'to the database, without the instance.update '
                'notification of Instance.save()',
        'file': 'nova/scheduler/utils.py',
        'old': _SET_VM_STATE,
        'new': _SET_VM_STATE.replace(
            "    instance.save()\n",
            "    if vm_state == 'pending':\n"
            "        from nova.db.main import api as mutant_db\n"
            "        mutant_db.instance_update(context, instance_uuid,\n"
            "                                  dict(updates))\n"
            "    else:\n"
            "        instance.save()\n"),
        'programs': ['nova-conductor'],
        'tests': _NOTIFY + 'test_pending_sends_instance_update\\[',
        'message': 'No versioned notification instance.update in state '
                   'pending',
    },
    'notify-build-error-says-error': {
        'requirement': 'PEND-12',
        'what': 'the versioned compute_task.build_instances.error of a '
                'server put in PENDING says state error',
        'file': 'nova/scheduler/utils.py',
        'old': _TASK_ERROR,
        'new': _TASK_ERROR.replace(' vm_state, ex)', " 'error', ex)"),
        'programs': ['nova-conductor'],
        'tests': _NOTIFY + 'test_build_outcome_notified\\[',
        'message': "compute_task.build_instances.error state: expected "
                   "'pending', got 'error'",
    },
    'notify-cell0-rebuild-new-event': {
        'requirement': 'RB-15',
        'what': 'a cell0 rebuild sends a versioned notification of an event '
                'type stock nova does not have '
                '(scheduler.select_destinations.error)',
        'file': 'nova/conductor/manager.py',
        'old': _CELL0_REBUILD_BUILD,
        'new': "        compute_utils.notify_about_scheduler_action(\n"
               "            context, request_spec, 'select_destinations',\n"
               "            phase='error')\n" + _CELL0_REBUILD_BUILD,
        'programs': ['nova-conductor'],
        'tests': _NOTIFY + 'test_cell0_rebuild_no_new_notifications\\[',
        'message': 'introduced notification event types stock nova 34.0.0 '
                   'does not emit: scheduler.select_destinations.error',
    },
}


def aio_dir():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.environ.get('AIO_DIR') or os.path.join(repo, '.aio')


def site_packages():
    found = glob.glob(os.path.join(aio_dir(), 'venvs', 'openstack', 'lib',
                                   'python3*', 'site-packages'))
    if not found:
        sys.exit('nova_mutant: no services venv under %s (tox -e aio first)'
                 % aio_dir())
    return found[0]


def state_dir():
    return os.path.join(aio_dir(), 'state', 'mutant')


def applied():
    try:
        with open(os.path.join(state_dir(), 'applied.json')) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def drop_bytecode(path):
    base = os.path.splitext(os.path.basename(path))[0]
    for pyc in glob.glob(os.path.join(os.path.dirname(path), '__pycache__',
                                      base + '.*.pyc')):
        os.unlink(pyc)


def computes_up(since):
    """Whether every nova-compute is up with a heartbeat after ``since``.

    :param since: a naive UTC datetime, as os-services writes them
    """
    found = subprocess.run(
        [os.path.join(aio_dir(), 'bin', 'openstack'), '--os-cloud',
         'aio-admin', 'compute', 'service', 'list', '--service',
         'nova-compute', '-f', 'json', '-c', 'State', '-c', 'Updated At'],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if found.returncode:
        return False
    services = json.loads(found.stdout or '[]')
    fresh = [s['State'] == 'up' and bool(s['Updated At'])
             and datetime.datetime.fromisoformat(s['Updated At']) > since
             for s in services]
    return bool(fresh) and all(fresh)


def restart(programs):
    ctl = os.path.join(aio_dir(), 'bin', 'supervisorctl')
    subprocess.run([ctl, 'restart'] + programs, check=True,
                   stdout=subprocess.DEVNULL)
    if 'nova-conductor' in programs:
        # The computes report through the conductor: while it restarts
        # they miss heartbeats and read "down" (the embedded cloud's
        # service_down_time is 12 s), and the scheduler's ComputeFilter
        # would refuse them to the tests.  Wait until they are up again.
        since = datetime.datetime.now(datetime.timezone.utc).replace(
            tzinfo=None)
        deadline = time.monotonic() + 120
        while not computes_up(since):
            if time.monotonic() > deadline:
                sys.exit('nova_mutant: the computes are not up 120 s after '
                         'restarting nova-conductor; see %s/logs/'
                         % aio_dir())
            time.sleep(2)
    if 'nova-api' in programs:
        # Answering again, not only started.
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen('http://127.0.0.1:8774/', timeout=5)
                return
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit('nova_mutant: nova-api does not answer after '
                             'its restart; see %s/logs/nova-api.log'
                             % aio_dir())
                time.sleep(0.5)


def cmd_apply(name, replace=False):
    """Apply ``name``; with ``replace``, in place of the applied mutant.

    Replacing puts the applied mutant's file back without restarting, then
    restarts once what either mutant touches: half the restarts of a
    restore and an apply (each nova-conductor restart costs the wait for
    the computes' heartbeats).
    """
    if name not in MUTANTS:
        sys.exit('nova_mutant: no mutant %r (known: %s)'
                 % (name, ', '.join(sorted(MUTANTS))))
    current = applied()
    programs = list(MUTANTS[name]['programs'])
    if current and not replace:
        sys.exit('nova_mutant: %s is applied; restore first'
                 % current['name'])
    if current:
        shutil.copy2(os.path.join(state_dir(), 'original'), current['path'])
        drop_bytecode(current['path'])
        shutil.rmtree(state_dir())
        programs += [p for p in current['programs'] if p not in programs]
    mutant = MUTANTS[name]
    path = os.path.join(site_packages(), mutant['file'])
    with open(path) as f:
        text = f.read()
    count = text.count(mutant['old'])
    if count != 1:
        sys.exit('nova_mutant: %s: the text to change occurs %d times in %s'
                 ' (expected once): update the mutant' % (name, count, path))
    os.makedirs(state_dir(), exist_ok=True)
    backup = os.path.join(state_dir(), 'original')
    shutil.copy2(path, backup)
    with open(os.path.join(state_dir(), 'applied.json'), 'w') as f:
        json.dump({'name': name, 'path': path,
                   'programs': mutant['programs']}, f)
    with open(path, 'w') as f:
        f.write(text.replace(mutant['old'], mutant['new']))
    drop_bytecode(path)
    restart(programs)
    print('nova_mutant: applied %s (%s): %s' % (
        name, mutant['requirement'], mutant['what']))


def cmd_restore():
    current = applied()
    if not current:
        print('nova_mutant: nothing applied')
        return
    shutil.copy2(os.path.join(state_dir(), 'original'), current['path'])
    drop_bytecode(current['path'])
    restart(current['programs'])
    shutil.rmtree(state_dir())
    print('nova_mutant: restored nova (%s undone)' % current['name'])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)
    listing = sub.add_parser('list')
    listing.add_argument('--grouped', action='store_true',
                         help='in the order that needs the fewest restarts '
                              'with apply --replace: by profile, then by '
                              'the programs they restart')
    show = sub.add_parser('show')
    show.add_argument('name', choices=sorted(MUTANTS))
    show.add_argument('field', choices=['tests', 'message', 'requirement',
                                        'profile'])
    apply = sub.add_parser('apply')
    apply.add_argument('name')
    apply.add_argument('--replace', action='store_true',
                       help='in place of the applied mutant, if any')
    sub.add_parser('restore')
    args = parser.parse_args()
    if args.cmd == 'list':
        names = list(MUTANTS)
        if args.grouped:
            names.sort(key=lambda n: (MUTANTS[n].get('profile', ''),
                                      sorted(MUTANTS[n]['programs'])))
        for name in names:
            print(name)
    elif args.cmd == 'show':
        # profile: the host_status policy profile the cloud must run for
        # the tests to see the bug (empty: any).
        print(MUTANTS[args.name].get(args.field, ''))
    elif args.cmd == 'apply':
        cmd_apply(args.name, replace=args.replace)
    else:
        cmd_restore()


if __name__ == '__main__':
    main()
