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
"""The mutants of the reference nova: small, deliberate bugs of the series.

Each mutant breaks one thing the series (``../patches/``) or stock nova
does: one edit of one file of the nova installed in the embedded cloud
(``old`` replaced by ``new`` in ``file``, found exactly once), then a
restart of the ``programs`` that load it.  ``tests`` (a regex of the
plugin's test ids) must then fail, their failure text containing
``message``; ``requirements`` are the catalogue's ids they prove,
``profile`` the host_status policy profile the cloud must run for the bug
to show (none: any), ``cells`` the cells of nova it needs (2: the embedded
cloud with ``aio_nova_two_cells=true``; elsewhere its batch is not run).
``BATCHES`` group them for the mutants leg; ``EXEMPT`` names the verified
requirements without a mutant, with the reason.

Data only: the machinery that applies, restores and judges them is
``pending_aio/mutants/mutant.py`` (``python -m pending_aio mutant``), which
loads this file by its path; the unit tests
(``pending_aio/tests/test_nova_mutant.py``) check the
batch rules.
"""

_COPY_LOOP = (
    "        for bdm in bdms:\n"
    "            values = {field: getattr(bdm, field) for field in "
    "bdm.obj_fields\n"
    "                      if field not in _CELL0_REBUILD_EXCLUDED_BDM_FIELDS"
    " and\n"
    "                      bdm.obj_attr_is_set(field)}\n")

_REBUILD = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_cell0_rebuild\\.Cell0Rebuild\\w*Test\\.')

_PENDING = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_pending_state\\.PendingStateTest\\.')
_AUTO = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
         'test_cell0_rebuild\\.Cell0RebuildAutoNetworkTest\\.')
_LISTING = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_host_status_listing\\.HostStatusListing\\w*Test\\.')

# The server view: host_status in show and in detail.
_SHOW_HOST_STATUS = ("        if api_version_request.is_supported(request, "
                     "'2.16'):\n"
                     "            if show_host_status is None:\n")
_DETAIL_HOST_STATUS = ("        if api_version_request.is_supported(request, "
                       "'2.16'):\n"
                       "            unknown_only = "
                       "self._get_host_status_unknown_only(context)\n")
_HS = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
       'test_host_status\\.HostStatus\\w*Test\\.')
_DISRUPTIVE = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
               'test_host_status_disruptive\\.HostStatus\\w*Test\\.')
_MEMBER = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
           'test_member_only\\.MemberOnly\\w*Test\\.')
_RACES = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
          'test_cell0_rebuild_races\\.Cell0Rebuild\\w*Test\\.')

# compute.API._copy_for_cell0_rebuild: after the fields of the cell0
# instance are copied.
_NEW_FLAVOR = ("        instance.new_flavor = None\n"
               "        instance.system_metadata = dict("
               "cell0_instance.system_metadata)\n")

# conductor _bury_in_cell0: the state of a buried instance.
_BURIAL_VM_STATE = ("        updates = {'vm_state': "
                    "self._get_cell0_vm_state(context, exc),\n")
_BURIAL_TASK_STATE = ("                   'task_state': None}\n"
                      "        for instance in instances_by_uuid.values():\n")

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
_VALIDATE_NETWORKS = ("                owner, requested_networks.as_tuples(), "
                      "1,\n"
                      "                check_port_quota=False)\n")

# conductor: the requested networks of an instance buried in cell0 are
# stored in its request spec.
_PERSIST_NETWORKS = ("        spec.requested_networks = requested_networks\n"
                     "        spec.save_requested_networks(True)\n")
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
_CALLERS = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
            'test_cell0_rebuild_callers\\.Cell0RebuildOtherCaller\\w*Test\\.')

_NOTIFY = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
           'test_notifications\\.Notifications\\w*Test\\.')
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
# conductor.ComputeTaskManager._bury_in_cell0: the error notification of
# the build (the create's burial and the cell0 rebuild's alike).
_BURY_NOTIFY = ("                    cctxt, instance.uuid, 'build_instances', "
                "updates,\n"
                "                    exc, request_spec)\n")
# conductor.ComputeTaskManager.rebuild_instance_in_cell0: the quota check.
_CELL0_REBUILD_QUOTA = ("        instance = build_request.instance\n"
                        "        try:\n"
                        "            self._check_quota_for_cell0_rebuild(\n")
_CELL0_REBUILD_BUILD = (
    "        self._schedule_and_build_instances(\n"
    "            context, [build_request], [request_spec], image, "
    "admin_password,\n")

# The cross-cell tests (issue 43), on a cloud of two cells.
_CELLS = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
          'test_cell0_rebuild_cells\\.Cell0RebuildCellsTest\\.')

# conductor schedule_and_build_instances: the cell of the selected host.
_HOST_CELL = ("            cell = host_mapping.cell_mapping\n"
              "\n"
              "            # Before we create the instance, let's make one "
              "final check that\n")

# nova/quota.py _instances_cores_ram_count_legacy: the cells counted.
_COUNTED_CELLS = ("        cell_mappings = nova_context.CELLS\n"
                  "    results = nova_context.scatter_gather_cells(\n")


_DOWN_CELL = ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
              'test_cell0_rebuild_cells\\.Cell0RebuildDownCellTest\\.')
# nova's API: minimal records of a down cell's servers in a listing from
# 2.69 (show has its own check).
_CELL_DOWN_SUPPORT = ("    def _is_cell_down_supported(req, search_opts):\n"
                      "        cell_down_support = api_version_request."
                      "is_supported(req, '2.69')\n")
# The quota usage of the cell databases: a cell that is down is skipped.
_COUNTED_RESULTS = ("    for result in results.values():\n"
                    "        if not nova_context.is_cell_failure_sentinel("
                    "result):\n"
                    "            for resource, count in result['project']."
                    "items():\n")
# The scheduler's computes of each cell: a cell that failed is skipped.
_CELL_COMPUTES = ("            if isinstance(result, Exception):\n"
                  "                LOG.warning('Failed to get computes for "
                  "cell %s', cell_uuid)\n")


MUTANTS = {
    'cell0-rebuild-into-first-cell': {
        'requirements': ['RB-49'],
        'what': 'the cell0 rebuild creates and maps the server in the first '
                'cell whatever the cell of the host it was scheduled to '
                '(a single-cell habit)',
        'file': 'nova/conductor/manager.py',
        'old': _HOST_CELL,
        'new': _HOST_CELL.replace(
            "            cell = host_mapping.cell_mapping\n",
            "            cell = host_mapping.cell_mapping\n"
            "            if action == instance_actions.REBUILD:\n"
            "                cell = [c for c in objects.CellMappingList."
            "get_all(\n"
            "                    context) if not c.is_cell0()][0]\n"),
        'cells': 2,
        'programs': ['nova-conductor'],
        'tests': _CELLS + 'test_rebuilds_land_in_each_cell\\[',
        'message': 'did not reach ACTIVE',
    },
    'quota-counts-first-cell-only': {
        'requirements': ['RB-50'],
        'what': 'quota usage counted from the database of cell0 and the '
                'first cell only: the servers of another cell are missed',
        'file': 'nova/quota.py',
        'old': _COUNTED_CELLS,
        'new': _COUNTED_CELLS.replace(
            "    results = ",
            "    cell_mappings = [c for c in cell_mappings\n"
            "                     if c.name in ('cell0', 'cell1')]\n"
            "    results = "),
        'cells': 2,
        'programs': ['nova-api', 'nova-conductor'],
        'tests': _CELLS + 'test_quota_counts_the_servers_of_every_cell\\[',
        'message': 'each counted once',
    },
    'host-status-listing-first-cell-only': {
        'requirements': ['HS-25'],
        'what': 'a listing gives host_status only to the servers on hosts '
                'of the first cell (the services of one cell read); the '
                'others get ""',
        'file': 'nova/compute/api.py',
        'old': _HOST_STATUS_LOOP,
        'new': _HOST_STATUS_LOOP.replace(
            "        for instance in instance_list:\n"
            "            if instance.host:\n",
            "        ctxt = nova_context.get_admin_context()\n"
            "        first = [c for c in objects.CellMappingList.get_all("
            "ctxt)\n"
            "                 if not c.is_cell0()][0]\n"
            "        hosts = set(m.host for m in objects.HostMappingList."
            "get_by_cell_id(\n"
            "            ctxt, first.id))\n"
            "        for instance in instance_list:\n"
            "            if instance.host and instance.host in hosts:\n"),
        'cells': 2,
        'programs': ['nova-api'],
        'tests': _LISTING + 'test_detail_listing_of_several_servers\\[',
        'message': "expected 'UP', got ''",
    },
    'down-cell-listing-skips-cell': {
        'requirements': ['PEND-21'],
        'what': 'a listing from 2.69 leaves out the servers of a cell that '
                'is down instead of giving their minimal records',
        'file': 'nova/api/openstack/compute/servers.py',
        'old': _CELL_DOWN_SUPPORT,
        'new': _CELL_DOWN_SUPPORT.replace(
            "api_version_request.is_supported(req, '2.69')", 'False'),
        'cells': 2,
        'programs': ['nova-api'],
        'tests': _DOWN_CELL + 'test_pending_server_while_a_cell_is_down\\[',
        'message': 'not in the owner\'s listing',
    },
    'quota-count-fails-on-a-down-cell': {
        'requirements': ['RB-52'],
        'what': 'quota usage counted in the cell databases fails when a '
                'cell does not answer (its failure read as a result)',
        'file': 'nova/quota.py',
        'old': _COUNTED_RESULTS,
        'new': _COUNTED_RESULTS.replace(
            'if not nova_context.is_cell_failure_sentinel(result):',
            'if True:'),
        'cells': 2,
        'programs': ['nova-api', 'nova-conductor'],
        'tests': _DOWN_CELL + 'test_rebuild_while_a_cell_is_down\\[',
        'message': 'Got server fault',
    },
    'scheduler-fails-on-a-down-cell': {
        'requirements': ['RB-51'],
        'what': 'the scheduler fails every request while a cell is down '
                '(the error reading its computes raised, not the cell '
                'skipped)',
        'file': 'nova/scheduler/host_manager.py',
        'old': _CELL_COMPUTES,
        'new': _CELL_COMPUTES.replace(
            "                LOG.warning('Failed to get computes for "
            "cell %s', cell_uuid)\n",
            "                raise result\n"),
        'cells': 2,
        'programs': ['nova-scheduler'],
        'tests': _DOWN_CELL + 'test_rebuild_while_a_cell_is_down\\[',
        'message': 'expected the server buried again',
    },
    'rebuild-drops-data-volumes': {
        'requirements': ['RB-06'],
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
        'requirements': ['RB-06'],
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
        'requirements': ['RB-07'],
        'what': 'the cell0 rebuild forgets the server tags',
        'file': 'nova/compute/api.py',
        'old': "            for tag in tags])\n",
        'new': "            for tag in tags if False])\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_attributes\\[',
        'message': 'after the cell0 rebuild: tags: expected',
    },
    'rebuild-ignores-null-attributes': {
        'requirements': ['RB-23'],
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
        'requirements': ['RB-24'],
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
        'requirements': ['RB-24'],
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
        'requirements': ['RB-25'],
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
        'requirements': ['RB-26'],
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
        'requirements': ['RB-27'],
        'what': 'the cell0 rebuild does not read the persisted requested '
                'networks (as if none had been requested)',
        'file': 'nova/compute/api.py',
        'old': "        if 'requested_networks' in request_spec:\n",
        'new': "        if False:\n",
        'programs': ['nova-api'],
        'tests': _NETWORKS,
        'message': 'expected 202 Accepted, got 409',
    },
    'rebuild-validates-in-callers-project': {
        'requirements': ['RB-34'],
        'what': 'the cell0 rebuild validates the requested networks in the '
                "caller's project, not the owner's: networks \"auto\" are "
                "ambiguous for an admin whose project has networks",
        'file': 'nova/compute/api.py',
        'old': "        owner = self._owner_context(context, instance)\n",
        'new': "        owner = context\n",
        'programs': ['nova-api'],
        'tests': _CALLERS + 'test_rebuild_auto_network_by_admin_of_another_'
                            'project\\[',
        'message': 'expected 202 Accepted, got 409',
    },
    'cell0-rebuild-quota-counts-caller': {
        'requirements': ['RB-35'],
        'what': "the conductor's quota check before a cell0 rebuild counts "
                "the caller's project and user, not the owner's",
        'file': 'nova/conductor/manager.py',
        'old': "        flavor = instance.flavor\n"
               "        project_id = instance.project_id\n"
               "        user_id = instance.user_id\n",
        'new': "        flavor = instance.flavor\n"
               "        project_id = context.project_id\n"
               "        user_id = context.user_id\n",
        'programs': ['nova-conductor'],
        'tests': _CALLERS + 'test_quota_counted_for_the_owner\\[',
        'message': "quota counted for the caller's project?",
    },
    'cell0-rebuild-allocates-for-callers-user': {
        'requirements': ['RB-35'],
        'what': "the API prepares a cell0 rebuild's request spec for the "
                "caller's user: the scheduler claims the server's "
                "allocations for that user (placement's per-user usage, "
                "which per-user quotas count), not the owner's",
        'file': 'nova/compute/api.py',
        'old': "        request_spec.num_instances = 1\n"
               "        request_spec.requested_destination = None\n",
        'new': "        request_spec.num_instances = 1\n"
               "        request_spec.user_id = context.user_id\n"
               "        request_spec.requested_destination = None\n",
        'programs': ['nova-api'],
        'tests': _CALLERS + 'test_rebuild_by_admin_of_another_project\\[',
        'message': "expected its owner's project and user",
    },
    'cell0-rebuild-fixed-ip-taken-500': {
        'requirements': ['RB-36'],
        'what': 'the rebuild action does not map FixedIpAlreadyInUse: a '
                'cell0 rebuild whose fixed IP was taken meanwhile is a 500',
        'file': 'nova/api/openstack/compute/servers.py',
        'old': "                exception.UnableToAutoAllocateNetwork,\n"
               "                exception.FixedIpAlreadyInUse,\n",
        'new': "                exception.UnableToAutoAllocateNetwork,\n",
        'programs': ['nova-api'],
        'tests': _RACES + 'test_rebuild_refused_for_fixed_ip_taken\\[',
        'message': 'expected a 4xx naming the address',
    },
    'cell0-rebuild-root-volume-gone-500': {
        'requirements': ['RB-37'],
        'what': 'the rebuild action does not map VolumeNotFound: a cell0 '
                'rebuild whose root volume was deleted meanwhile is a 500',
        'file': 'nova/api/openstack/compute/servers.py',
        'old': "                exception.VolumeNotFound,\n"
               "                exception.SnapshotNotFound,\n",
        'new': "                exception.SnapshotNotFound,\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_refused_for_deleted_root_volume\\[',
        'message': 'expected a 4xx naming the volume, got 500',
    },
    'cell0-rebuild-data-volumes-unchecked': {
        'requirements': ['RB-37'],
        'what': 'the cell0 rebuild checks the root volume only (neither '
                'the other volumes nor their attachments): a data volume '
                'deleted meanwhile makes the build fail in a cell (202, then '
                'ERROR) instead of a 400',
        'file': 'nova/compute/api.py',
        'old': "            if bdm is not root_bdm:\n"
               "                self.volume_api.get(context, bdm.volume_id)\n",
        'new': "            if bdm is not root_bdm:\n"
               "                continue\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_refused_for_deleted_data_volume'
                            '\\[',
        'message': 'expected a 4xx naming the volume, got 202',
    },
    'cell0-rebuild-security-groups-unchecked': {
        'requirements': ['RB-38'],
        'what': 'the cell0 rebuild does not validate the security groups '
                'again: a group deleted meanwhile makes the build fail in a '
                'cell (202, then ERROR) instead of a 400',
        'file': 'nova/compute/api.py',
        'old': "        if 'security_groups' in request_spec and "
               "request_spec.security_groups:\n",
        'new': "        if False:\n",
        'programs': ['nova-api'],
        'tests': _RACES + 'test_rebuild_refused_for_deleted_security_group'
                          '\\[',
        'message': 'expected a 4xx naming the group, got 202',
    },
    'rebuild-replaces-requested-port': {
        'requirements': ['RB-28'],
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
        'requirements': ['RB-29'],
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
        'requirements': ['RB-30'],
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
        'requirements': ['RB-31'],
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
        'requirements': ['RB-32'],
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
        'requirements': ['RB-33'],
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
        'requirements': ['PEND-14'],
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
        'requirements': ['PEND-03'],
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
        'requirements': ['RB-12'],
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
                  'test_build_failures\\.BuildFailureRebuildTest\\.'
                  'test_build_failure_not_rebuilt_from_cell0\\['),
        'message': 'expected 409 Conflict',
    },
    'pending-fault-hidden': {
        'requirements': ['PEND-18'],
        'what': 'a PENDING server is shown without its fault (PENDING is '
                'not one of the fault statuses of the server view)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': '        "ERROR", "DELETED", "PENDING"\n',
        'new': '        "ERROR", "DELETED"\n',
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_server_shows_fault\\[',
        'message': 'fault: expected the NoValidHost fault',
    },
    'inject-network-info-no-host-500': {
        'requirements': ['PEND-20'],
        'what': 'injectNetworkInfo casts to the compute of a server that '
                'has none (a PENDING server): 500 (nova 34.0.0; patch 0001)',
        'file': 'nova/compute/api.py',
        'old': '    @check_instance_lock\n    @check_instance_host()\n'
               '    def inject_network_info(',
        'new': '    @check_instance_lock\n    def inject_network_info(',
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_server_actions\\[',
        'message': 'injectNetworkInfo (admin): expected 409',
    },
    'host-status-cached-per-zone': {
        'requirements': ['HS-20'],
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
        'requirements': ['HS-21'],
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
        'requirements': ['HS-21'],
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
        'requirements': ['HS-22'],
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
    # -- host_status: nova's own code (compute/api.py, the server view,
    # the policy defaults; the admin_only profile is nova's defaults).
    'host-status-show-needs-2-17': {
        'requirements': ['HS-01'],
        'what': 'GET /servers/{id} adds host_status from microversion 2.17 '
                'instead of 2.16 (off by one in the show view)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': _SHOW_HOST_STATUS,
        'new': _SHOW_HOST_STATUS.replace("'2.16'", "'2.17'"),
        'programs': ['nova-api'],
        'tests': _HS + 'test_up_visibility\\[',
        'message': "(GET server at 2.16, ",
    },
    'host-status-detail-needs-2-17': {
        'requirements': ['HS-02'],
        'what': 'GET /servers/detail adds host_status from microversion '
                '2.17 instead of 2.16 (off by one in the detail view)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': _DETAIL_HOST_STATUS,
        'new': _DETAIL_HOST_STATUS.replace("'2.16'", "'2.17'"),
        'programs': ['nova-api'],
        'tests': _HS + 'test_up_visibility\\[',
        'message': "(GET servers/detail at 2.16, ",
    },
    'host-status-from-2-15': {
        'requirements': ['HS-03'],
        'what': 'the show view adds host_status from microversion 2.15 '
                '(off by one the other way)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': _SHOW_HOST_STATUS,
        'new': _SHOW_HOST_STATUS.replace("'2.16'", "'2.15'"),
        'programs': ['nova-api'],
        'tests': _HS + 'test_no_host_status_below_2_16\\[',
        'message': "'host_status' was unexpected",
    },
    'host-status-no-host-null': {
        'requirements': ['HS-04', 'HS-09'],
        'what': 'a server without a host gets host_status null instead of '
                'the empty string (show)',
        'file': 'nova/compute/api.py',
        'old': "            except IndexError:\n"
               "                host_status = fields_obj.HostStatus.NONE\n"
               "        else:\n"
               "            host_status = fields_obj.HostStatus.NONE\n"
               "        return host_status\n",
        'new': "            except IndexError:\n"
               "                host_status = fields_obj.HostStatus.NONE\n"
               "        else:\n"
               "            host_status = None\n"
               "        return host_status\n",
        'programs': ['nova-api'],
        'tests': _HS + 'test_no_host_visibility\\[',
        'message': "None is not of type 'string'",
    },
    'host-status-alive-inverted': {
        'requirements': ['HS-05', 'HS-06'],
        'what': 'UP and UNKNOWN swapped: a reporting compute reads UNKNOWN, '
                'a silent one UP',
        'file': 'nova/compute/api.py',
        'old': "                    host_status = ((alive and "
               "fields_obj.HostStatus.UP) or\n"
               "                                   "
               "fields_obj.HostStatus.UNKNOWN)\n",
        'new': "                    host_status = ((alive and "
               "fields_obj.HostStatus.UNKNOWN) or\n"
               "                                   "
               "fields_obj.HostStatus.UP)\n",
        'programs': ['nova-api'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_host_status(\\.HostStatusTest\\.test_up_visibility|'
                  '_listing\\.HostStatusListingStoppedComputeTest\\.'
                  'test_unknown)\\['),
        'message': "expected 'UP', got 'UNKNOWN'",
    },
    'host-status-liveness-first': {
        'requirements': ['HS-07', 'HS-10', 'HS-11', 'HS-12'],
        'what': 'host_status checks the heartbeat first: a compute forced '
                'down or disabled that does not report reads UNKNOWN',
        'file': 'nova/compute/api.py',
        'old': "                if service.forced_down:\n"
               "                    host_status = "
               "fields_obj.HostStatus.DOWN\n",
        'new': "                if not self.servicegroup_api.service_is_up("
               "service):\n"
               "                    host_status = "
               "fields_obj.HostStatus.UNKNOWN\n"
               "                elif service.forced_down:\n"
               "                    host_status = "
               "fields_obj.HostStatus.DOWN\n",
        'programs': ['nova-api'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_host_status_(disruptive\\.HostStatusDisruptiveTest'
                  '\\.(test_down|test_disabled_and_forced_down)|listing\\.'
                  'HostStatusListingStoppedComputeTest\\.'
                  '(test_disabled_and_stopped|test_forced_down_and_stopped))'
                  '\\['),
        'message': "'UNKNOWN'",
    },
    'host-status-disabled-is-down': {
        'requirements': ['HS-08', 'HS-13', 'HS-24'],
        'what': 'a disabled compute reads DOWN, like a forced-down one',
        'file': 'nova/compute/api.py',
        'old': "                if service.forced_down:\n",
        'new': "                if service.forced_down or service.disabled:\n",
        'programs': ['nova-api'],
        'tests': _DISRUPTIVE + 'test_maintenance(_update_response)?\\[',
        'message': "expected 'MAINTENANCE', got 'DOWN'",
    },
    'host-status-owner-by-default': {
        'requirements': ['HS-14'],
        'what': 'the default of os_compute_api:servers:show:host_status '
                'lets the project reader see host_status',
        'file': 'nova/policies/servers.py',
        'old': "        name=SERVERS % 'show:host_status',\n"
               "        check_str=base.ADMIN,\n",
        'new': "        name=SERVERS % 'show:host_status',\n"
               "        check_str=base.PROJECT_READER_OR_ADMIN,\n",
        'programs': ['nova-api'],
        'tests': _HS + 'test_up_visibility\\[',
        'message': 'over-permission for persona owner_member under policy '
                   'profile admin_only',
    },
    'host-status-unknown-only-fatal': {
        'requirements': ['HS-16'],
        'what': 'the unknown-only policy is checked with fatal=True: a '
                'caller it does not permit gets 403 instead of the server',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "                'show:host_status:unknown-only',\n"
               "                fatal=False,\n",
        'new': "                'show:host_status:unknown-only',\n",
        'programs': ['nova-api'],
        'tests': _MEMBER + 'test_member_views\\[',
        'message': "Policy doesn't allow os_compute_api:servers:show:"
                   "host_status:unknown-only",
    },
    'host-status-owner-target-user': {
        'requirements': ['HS-15'],
        'what': 'the host_status policy of a shown server is checked '
                'against its user id instead of its project id',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "            target = {'project_id': instance.project_id}\n",
        'new': "            target = {'project_id': instance.user_id}\n",
        'programs': ['nova-api'],
        'profile': 'admin_or_owner',
        'tests': _HS + 'test_up_visibility\\[',
        'message': 'under-permission for persona owner_member under policy '
                   'profile admin_or_owner',
    },
    'host-status-unknown-only-inverted': {
        'requirements': ['HS-17'],
        'what': 'the show view drops the "not" of "not unknown_only": the '
                'unknown-only caller sees every value, the full one only '
                'UNKNOWN',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "                    if (not unknown_only or\n",
        'new': "                    if (unknown_only or\n",
        'programs': ['nova-api'],
        'profile': 'unknown_only',
        'tests': _HS + 'test_up_visibility\\[',
        'message': 'over-permission for persona owner_member under policy '
                   'profile unknown_only',
    },
    'host-status-not-in-update-response': {
        'requirements': ['HS-18'],
        'what': 'the 2.75 response of PUT /servers/{id} never carries '
                'host_status',
        'file': 'nova/api/openstack/compute/servers.py',
        'old': "        show_host_status = None if show_all_attributes else "
               "False\n\n        return self._view_builder.show(\n",
        'new': "        show_host_status = False\n\n"
               "        return self._view_builder.show(\n",
        'programs': ['nova-api'],
        'tests': _HS + 'test_update_response\\[',
        'message': 'under-permission for persona admin',
    },
    # -- the PENDING state.
    'pending-needs-newer-api': {
        'requirements': ['PEND-02'],
        'what': 'the conductor requires a nova-api newer than the series '
                '(service version 77, the series being 76) for PENDING, so '
                'NoValidHost still gives ERROR',
        'file': 'nova/compute/utils.py',
        'old': 'MIN_API_VERSION_PENDING_STATE = 75\n',
        'new': 'MIN_API_VERSION_PENDING_STATE = 77\n',
        'programs': ['nova-conductor'],
        'tests': _PENDING + 'test_pending_show_and_detail\\[',
        'message': 'expected status PENDING / vm_state pending, got ERROR '
                   '/ error',
    },
    'pending-keeps-task-state': {
        'requirements': ['PEND-04'],
        'what': 'burial sets the vm_state only: a PENDING server keeps its '
                'task state "scheduling"',
        'file': 'nova/conductor/manager.py',
        'old': _BURIAL_TASK_STATE,
        'new': _BURIAL_TASK_STATE.replace("'task_state': None", ''),
        'programs': ['nova-conductor'],
        'tests': _PENDING + 'test_pending_show_and_detail\\[',
        'message': "OS-EXT-STS:task_state: expected None, got 'scheduling'",
    },
    'pending-status-from-2-106': {
        'requirements': ['PEND-05'],
        'what': 'the server view shows PENDING from microversion 2.106 '
                '(off by one): at 2.105 the server reads ERROR',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "                not api_version_request.is_supported(request, "
               "'2.105')):\n",
        'new': "                not api_version_request.is_supported(request, "
               "'2.106')):\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_show_and_detail\\[',
        'message': "status: expected 'PENDING', got 'ERROR'",
    },
    'pending-vm-state-raw-below-microversion': {
        'requirements': ['PEND-06'],
        'what': 'below the PENDING microversion OS-EXT-STS:vm_state shows '
                'the raw vm_state "pending" (only the status is mapped)',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': "                    self._get_vm_state(request, instance)\n"
               "                    if state == 'vm_state' else "
               "instance[state])\n",
        'new': "                    instance[state])\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_is_error_below_microversion\\[',
        'message': "OS-EXT-STS:vm_state: expected 'error', got 'pending'",
    },
    'pending-no-progress': {
        'requirements': ['PEND-07'],
        'what': 'PENDING is not one of the progress statuses of the server '
                'view',
        'file': 'nova/api/openstack/compute/views/servers.py',
        'old': '        "MIGRATING",\n        "PENDING",\n    )\n',
        'new': '        "MIGRATING",\n    )\n',
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_pending_show_and_detail\\[',
        'message': 'progress: expected a value',
    },
    'pending-delete-admin-only': {
        'requirements': ['PEND-08'],
        'what': 'deleting a PENDING server is reserved to admin (as if '
                'PENDING servers were the external service\'s business)',
        'file': 'nova/compute/api.py',
        'old': '    def delete(self, context, instance):\n'
               '        """Terminate an instance."""\n',
        'new': '    def delete(self, context, instance):\n'
               '        """Terminate an instance."""\n'
               '        if (instance.vm_state == vm_states.PENDING and\n'
               '                not context.is_admin):\n'
               '            raise exception.InstanceInvalidState(\n'
               "                attr='vm_state', instance_uuid=instance.uuid,"
               '\n'
               "                state=instance.vm_state, method='delete')\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_owner_deletes_pending_server\\[',
        'message': "Cannot 'delete' instance",
    },
    'pending-reset-to-error-ignored': {
        'requirements': ['PEND-09'],
        'what': 'os-resetState error leaves a PENDING server PENDING (it '
                'already reads ERROR below the microversion)',
        'file': 'nova/api/openstack/compute/admin_actions.py',
        'old': "        instance.vm_state = state\n"
               "        instance.task_state = None\n"
               "        instance.save(admin_state_reset=True)\n",
        'new': "        if not (state == vm_states.ERROR and\n"
               "                instance.vm_state == vm_states.PENDING):\n"
               "            instance.vm_state = state\n"
               "        instance.task_state = None\n"
               "        instance.save(admin_state_reset=True)\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_reset_state_pending_to_error\\[',
        'message': 'expected status ERROR / vm_state error, got PENDING / '
                   'pending',
    },
    'max-microversion-not-bumped': {
        'requirements': ['PEND-16'],
        'what': 'the maximum microversion was not bumped for the cell0 '
                'rebuild (2.105)',
        'file': 'nova/api/openstack/api_version_request.py',
        'old': "_MAX_API_VERSION = '2.106'\n",
        'new': "_MAX_API_VERSION = '2.105'\n",
        'programs': ['nova-api'],
        'tests': _MEMBER + 'test_api_max_microversion\\[',
        'message': '2.106',
    },
    'pending-action-event-succeeds': {
        'requirements': ['PEND-17'],
        'what': 'the event of the burial is finished as a success: the '
                'instance action does not say the scheduling failed',
        'file': 'nova/conductor/manager.py',
        'old': "        objects.InstanceActionEvent.event_finish_with_failure("
               "\n"
               "            context, instance.uuid, event_name, exc_val=exc,\n"
               "            exc_tb=sys.exc_info()[2], want_result=False)\n",
        'new': "        objects.InstanceActionEvent.event_finish(\n"
               "            context, instance.uuid, event_name, "
               "want_result=False)\n",
        'programs': ['nova-conductor'],
        'tests': _PENDING + 'test_pending_show_and_detail\\[',
        'message': 'instance action create: expected a failed event',
    },
    'quota-counts-deleted-servers': {
        'requirements': ['PEND-15'],
        'what': 'the quota count of servers from the cell databases keeps '
                'the vm_state filter (not soft deleted) but drops '
                'deleted=0: a deleted PENDING server still counts',
        'file': 'nova/objects/instance.py',
        'old': "            filter_by(deleted=0).\\\n"
               "            filter(not_soft_deleted).\\\n",
        'new': "            filter(not_soft_deleted).\\\n",
        'programs': ['nova-api'],
        'tests': _PENDING + 'test_owner_deletes_pending_server\\[',
        'message': 'Quota usage (in_use) of the owner project: expected',
    },
    'quota-counts-deleted-rebuilt-servers': {
        'requirements': ['RB-18'],
        'what': 'the quota count of servers from the cell databases keeps '
                'the vm_state filter (not soft deleted) but drops '
                'deleted=0: a server deleted after its cell0 rebuild still '
                'counts',
        'file': 'nova/objects/instance.py',
        'old': "            filter_by(deleted=0).\\\n"
               "            filter(not_soft_deleted).\\\n",
        'new': "            filter(not_soft_deleted).\\\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_delete_after_rebuild\\[',
        'message': 'instances in_use: expected',
    },
    # -- the rebuild of servers buried in cell0.
    'rebuild-refuses-pending': {
        'requirements': ['RB-01', 'PEND-10'],
        'what': 'the cell0 rebuild accepts ERROR servers only (PENDING '
                'forgotten in its state check): a PENDING server never '
                'goes to BUILD',
        'file': 'nova/compute/api.py',
        'old': "    @check_instance_state(vm_state=[vm_states.ERROR, "
               "vm_states.PENDING],\n",
        'new': "    @check_instance_state(vm_state=[vm_states.ERROR],\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_pending_server\\[',
        'message': 'Conflict',
    },
    'rebuild-refuses-novalidhost-error': {
        'requirements': ['RB-02'],
        'what': 'an ERROR server buried because of NoValidHost is not '
                'rebuildable (the reason left out of the list)',
        'file': 'nova/compute/api.py',
        'old': "CELL0_REBUILDABLE_REASONS = ('NoValidHost', "
               "'TooManyInstances', 'OverQuota',\n",
        'new': "CELL0_REBUILDABLE_REASONS = ('TooManyInstances', "
               "'OverQuota',\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_error_server\\[',
        'message': 'while it is in vm_state error',
    },
    'rebuild-drops-keypair': {
        'requirements': ['RB-04'],
        'what': 'the cell0 rebuild resets the keypair of the server '
                '(key_name and key_data), as for a server created without '
                'one',
        'file': 'nova/compute/api.py',
        'old': _NEW_FLAVOR,
        'new': _NEW_FLAVOR.replace(
            "        instance.system_metadata",
            "        instance.key_name = None\n"
            "        instance.key_data = None\n"
            "        instance.system_metadata"),
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_attributes\\[',
        'message': 'key_name: expected',
    },
    'rebuild-drops-config-drive': {
        'requirements': ['RB-08'],
        'what': 'the cell0 rebuild resets config_drive to the default',
        'file': 'nova/compute/api.py',
        'old': _NEW_FLAVOR,
        'new': _NEW_FLAVOR.replace(
            "        instance.system_metadata",
            "        instance.config_drive = ''\n"
            "        instance.system_metadata"),
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_attributes\\[',
        'message': 'config_drive: expected',
    },
    'rebuild-drops-user-data': {
        'requirements': ['RB-17'],
        'what': 'the cell0 rebuild resets the user data',
        'file': 'nova/compute/api.py',
        'old': _NEW_FLAVOR,
        'new': _NEW_FLAVOR.replace(
            "        instance.system_metadata",
            "        instance.user_data = None\n"
            "        instance.system_metadata"),
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_attributes\\[',
        'message': 'OS-EXT-SRV-ATTR:user_data: expected',
    },
    'persisted-networks-first-only': {
        'requirements': ['RB-09'],
        'what': 'burial persists the first requested network only',
        'file': 'nova/conductor/manager.py',
        'old': _PERSIST_NETWORKS,
        'new': _PERSIST_NETWORKS.replace(
            ' = requested_networks\n',
            ' = objects.NetworkRequestList(\n'
            '            objects=requested_networks.objects[:1])\n'),
        'programs': ['nova-conductor'],
        'tests': _NETWORKS,
        'message': 'the requested network), got',
    },
    'rebuild-microversion-2-105': {
        'requirements': ['RB-10'],
        'what': 'the API routes rebuilds of servers in cell0 from '
                'microversion 2.105 (off by one)',
        'file': 'nova/api/openstack/compute/servers.py',
        'old': "        if (api_version_request.is_supported(req, '2.106') "
               "and\n",
        'new': "        if (api_version_request.is_supported(req, '2.105') "
               "and\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_below_microversion_conflict\\[',
        'message': 'expected 409 Conflict, got a BUILD server',
    },
    'rebuild-no-quota-recheck': {
        'requirements': ['RB-11'],
        'what': 'the quota checks of the conductor (the check before a '
                'cell0 rebuild and the recheck after scheduling) leave the '
                'cores out',
        'file': 'nova/compute/utils.py',
        'old': "    deltas = {'instances': max_count, 'cores': req_cores, "
               "'ram': req_ram}\n",
        'new': "    deltas = {'instances': max_count, 'ram': req_ram}\n",
        'programs': ['nova-conductor'],
        'tests': _REBUILD + 'test_rebuild_quota_recheck\\[',
        # The server is built (ACTIVE) instead of refused.
        'message': 'although the quota did not allow it',
    },
    'cell0-rebuild-quota-left-to-recheck': {
        'requirements': ['RB-11'],
        'what': "the conductor leaves a cell0 rebuild's quota to nova's "
                'recheck after scheduling: with [quota] recheck_quota off, '
                'nothing counts it',
        'file': 'nova/conductor/manager.py',
        'old': "            self._check_quota_for_cell0_rebuild(\n"
               "                context, instance, request_spec)\n",
        'new': "            # Left to nova's quota recheck after scheduling.\n"
               "            pass\n",
        'programs': ['nova-conductor'],
        # The default cloud runs with recheck_quota off (group_vars
        # aio_quota_recheck): the server is built instead of refused.
        'tests': _REBUILD + 'test_rebuild_quota_recheck_ram\\[',
        'message': 'although the quota did not allow it',
    },
    'cell0-rebuild-default-security-group': {
        'requirements': ['RB-41'],
        'what': 'the cell0 rebuild builds the server with the default '
                'security group instead of the requested one',
        'file': 'nova/compute/api.py',
        'old': "        image_meta = objects.ImageMeta.from_dict(image)\n"
               "        request_spec.image = image_meta\n"
               "        request_spec.num_instances = 1\n",
        'new': "        request_spec.security_groups = (\n"
               "            objects.SecurityGroupList(objects=[\n"
               "                objects.SecurityGroup(name='default')]))\n"
               "        image_meta = objects.ImageMeta.from_dict(image)\n"
               "        request_spec.image = image_meta\n"
               "        request_spec.num_instances = 1\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_keeps_security_group_and_nic_'
                            'tag\\[',
        'message': 'security groups of the ports of the rebuilt server',
    },
    'cell0-rebuild-drops-scheduler-hints': {
        'requirements': ['RB-44'],
        'what': 'the cell0 rebuild schedules without the scheduler hints '
                'of the create request (same_host, different_host)',
        'file': 'nova/compute/api.py',
        'old': ('        return request_spec, requested_networks, '
                'stored_spec\n'),
        'new': ('        request_spec.scheduler_hints = {}\n'
                '        return request_spec, requested_networks, '
                'stored_spec\n'),
        'programs': ['nova-api'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_cell0_rebuild\\.Cell0Rebuild(SchedulerHints|SameHost)'
                  'Test\\.test_rebuild_honours_(different|same)_host\\['),
        'message': 'expected the server buried again',
    },
    'cell0-rebuild-drops-volume-tags': {
        'requirements': ['RB-06'],
        'what': 'the cell0 rebuild copies the block device mappings '
                'without their device tags',
        'file': 'nova/compute/api.py',
        'old': "    'id', 'instance', 'created_at', 'updated_at', 'deleted', "
               "'deleted_at')\n",
        'new': "    'id', 'instance', 'created_at', 'updated_at', 'deleted', "
               "'deleted_at', 'tag')\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_rebuild_boot_from_volume\\[',
        'message': 'Tags of the volume attachments',
    },
    'cell0-rebuild-drops-server-group': {
        'requirements': ['RB-42', 'RB-47'],
        'what': 'the cell0 rebuild schedules the server without its server '
                'group: anti-affinity and affinity are ignored',
        'file': 'nova/compute/api.py',
        'old': "        request_spec.requested_destination = None\n"
               "        request_spec.ignore_hosts = None\n",
        'new': "        request_spec.requested_destination = None\n"
               "        request_spec.ignore_hosts = None\n"
               "        request_spec.instance_group = None\n",
        'programs': ['nova-api'],
        'tests': ('^pending_tempest_plugin\\.tests\\.api\\.compute\\.'
                  'test_cell0_rebuild\\.Cell0Rebuild(ServerGroup|Affinity)'
                  'Test\\.test_rebuild_honours_(anti_)?affinity\\['),
        # Each test its own message: a failure of one for another reason
        # does not count.
        'message': {
            'test_rebuild_honours_anti_affinity':
                'holds another member of its anti-affinity group',
            'test_rebuild_honours_affinity':
                'of the other member of its affinity group'},
    },
    'rebuild-soft-deletes-cell0': {
        'requirements': ['RB-13'],
        'what': 'the cell0 records are soft deleted when the rebuild '
                'starts: a deleted second record of the server remains',
        'file': 'nova/compute/api.py',
        'old': "                cell0_instance.destroy(hard_delete=True)\n",
        'new': "                cell0_instance.destroy()\n",
        'programs': ['nova-api'],
        'tests': _REBUILD + 'test_delete_after_rebuild\\[',
        'message': 'cell0',
    },
    'quota-reburial-drops-tags-and-networks': {
        'requirements': ['RB-39'],
        'what': 'a cell0 rebuild refused by the quota buries the server '
                'again without its tags and requested networks',
        'file': 'nova/conductor/manager.py',
        'old': "                                tags=tags,\n"
               "                                requested_networks="
               "requested_networks,\n"
               "                                action="
               "instance_actions.REBUILD)\n"
               "            return\n"
               "        self._schedule_and_build_instances(\n",
        'new': "                                tags=None,\n"
               "                                requested_networks=None,\n"
               "                                action="
               "instance_actions.REBUILD)\n"
               "            return\n"
               "        self._schedule_and_build_instances(\n",
        'programs': ['nova-conductor'],
        'tests': _REBUILD + 'test_quota_reburial_keeps_everything\\[',
        'message': 'the quota refused',
    },
    'reburial-always-error': {
        'requirements': ['RB-16'],
        'what': 'a cell0 rebuild that finds no capacity buries the server '
                'in ERROR even with use_pending_state',
        'file': 'nova/conductor/manager.py',
        'old': _BURIAL_VM_STATE,
        'new': _BURIAL_VM_STATE.replace(
            "self._get_cell0_vm_state(context, exc),",
            "(self._get_cell0_vm_state(context, exc)\n"
            "                                if action == "
            "instance_actions.CREATE\n"
            "                                else vm_states.ERROR),"),
        'programs': ['nova-conductor'],
        'tests': _REBUILD + 'test_rebuild_still_no_capacity\\[',
        'message': 'without capacity: expected status PENDING / vm_state '
                   'pending, got ERROR',
    },
    'rebuild-keeps-deleted-port': {
        'requirements': ['RB-20'],
        'what': 'the cell0 rebuild does not validate the requested ports '
                'again: a port taken by another server fails in the cell, '
                'not in the API (a deleted port is still refused by a later '
                'check, so only the taken port shows the bug)',
        'file': 'nova/compute/api.py',
        'old': "        if not requested_networks.no_allocate:\n"
               "            self.network_api.validate_networks(\n"
               + _VALIDATE_NETWORKS,
        'new': "",
        'programs': ['nova-api'],
        'tests': _RACES + 'test_rebuild_refused_for_port_in_use\\[',
        'message': 'expected a 4xx naming the port, got 202',
    },
    'unpin-drops-requested-networks': {
        'requirements': ['RB-21'],
        'what': 'a request spec saved with the default arguments drops the '
                'requested networks stored at burial',
        'file': 'nova/objects/request_spec.py',
        'old': "                keep_stored_requested_networks=(\n"
               "                    persist_requested_networks is None))\n",
        'new': "                keep_stored_requested_networks=False)\n",
        'programs': ['nova-api', 'nova-conductor'],
        'tests': _RACES + 'test_unpin_availability_zone_then_rebuild_keeps_'
                          'networks\\[',
        'message': 'Multiple possible networks found',
    },
    'rebuild-action-event-failed': {
        'requirements': ['RB-22'],
        'what': 'the cell0 rebuild is recorded as a "create" instance '
                'action',
        'file': 'nova/conductor/manager.py',
        'old': "            tags=tags, action=instance_actions.REBUILD)\n",
        'new': "            tags=tags)\n",
        'programs': ['nova-conductor'],
        'tests': _RACES + 'test_rebuild_recorded_as_instance_action\\[',
        'message': "caller), got [('create'",
    },
    'rebuild-drops-trusted-certs': {
        'requirements': ['RB-05'],
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
        'requirements': ['PEND-11'],
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
        'requirements': ['PEND-12'],
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
        'requirements': ['RB-15'],
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
    'notify-reburial-as-rebuild-server': {
        'requirements': ['RB-48'],
        'what': 'a server buried again by its cell0 rebuild (no capacity, '
                'or the quota) is notified as a failed compute rebuild '
                '(compute_task.rebuild_server.error, a stock event type), '
                'not as a failed build',
        'file': 'nova/conductor/manager.py',
        'old': _BURY_NOTIFY,
        'new': _BURY_NOTIFY.replace(
            "'build_instances',",
            "'rebuild_server' if action == instance_actions.REBUILD\n"
            "                    else 'build_instances',"),
        'programs': ['nova-conductor'],
        'tests': _NOTIFY + 'test_each_outcome_notified_as_stock_nova\\[',
        'message': "the burial again: expected those of the first burial, "
                   "['compute_task.build_instances.error', 'instance.update']"
                   ", got ['compute_task.rebuild_server.error'",
    },
    'notify-cell0-rebuild-legacy-rebuild': {
        'requirements': ['RB-48'],
        'what': 'a cell0 rebuild sends the unversioned notification of a '
                'compute rebuild (compute.instance.rebuild.scheduled); the '
                'versioned ones are unchanged',
        'file': 'nova/conductor/manager.py',
        'old': _CELL0_REBUILD_QUOTA,
        'new': _CELL0_REBUILD_QUOTA.replace(
            "        try:\n",
            "        self.notifier.info(\n"
            "            context, 'compute.instance.rebuild.scheduled',\n"
            "            {'instance_id': instance.uuid})\n"
            "        try:\n"),
        'programs': ['nova-conductor'],
        'tests': _NOTIFY + 'test_each_outcome_notified_as_stock_nova\\[',
        'message': 'unversioned event types of the burial again: expected '
                   'those of the first burial',
    },
}


# The batches of the mutants leg.  The mutants of a batch are applied
# together and their tests run once: their tests are disjoint (a test
# fails for one mutant only), they need the same host_status policy
# profile, their edits do not overlap, and none of them breaks what the
# tests of the others need (checked on the embedded cloud: each batch
# catches every one of its mutants, each with its own message).  The
# mutants that change how servers are buried or shown (PENDING, task
# state, microversions) break the setup of the cell0 rebuild tests: they
# go with host_status mutants only.  pending_aio/stages/plugin_legs.py runs
# them in this order; the unit tests check the rules above.
BATCHES = [
    ['rebuild-drops-data-volumes', 'rebuild-drops-tags',
     'rebuild-keeps-cell0-image', 'rebuild-drops-requested-networks',
     'old-microversion-error-filter-misses-pending', 'pending-no-progress',
     'rebuild-refuses-novalidhost-error', 'rebuild-microversion-2-105',
     'host-status-cached-per-zone', 'quota-counts-deleted-servers',
     'rebuild-drops-trusted-certs'],
    ['rebuild-image-root-not-a-volume', 'rebuild-drops-keypair',
     'rebuild-keeps-cell0-image-properties',
     'rebuild-replaces-requested-port', 'max-retries-pending',
     'pending-action-event-succeeds',
     'pending-vm-state-raw-below-microversion', 'rebuild-no-quota-recheck',
     'rebuild-action-event-failed', 'host-status-no-host-takes-previous',
     'host-status-from-2-15', 'cell0-rebuild-allocates-for-callers-user'],
    ['rebuild-drops-config-drive', 'rebuild-merges-metadata',
     'persisted-networks-drop-fixed-ip', 'rebuild-never-launched',
     'pending-fault-hidden', 'pending-reset-to-error-ignored',
     'unpin-drops-requested-networks', 'host-status-owner-by-default',
     'host-status-first-server-only',
     'host-status-not-in-update-response',
     # Not with the other quota mutants: the quota tests of those need
     # the check it removes.
     'cell0-rebuild-quota-left-to-recheck',
     'cell0-rebuild-default-security-group',
     'cell0-rebuild-drops-server-group',
     'inject-network-info-no-host-500',
     'cell0-rebuild-drops-scheduler-hints',
     'cell0-rebuild-drops-volume-tags'],
    ['rebuild-drops-user-data', 'rebuild-renames-hostname',
     'persisted-networks-first-only', 'bury-forgets-networks-none',
     'pending-delete-admin-only', 'reburial-always-error',
     'quota-counts-deleted-rebuilt-servers',
     'quota-reburial-drops-tags-and-networks',
     'rebuild-validates-in-callers-project',
     'cell0-rebuild-quota-counts-caller', 'cell0-rebuild-fixed-ip-taken-500',
     'cell0-rebuild-root-volume-gone-500',
     'cell0-rebuild-data-volumes-unchecked',
     'cell0-rebuild-security-groups-unchecked'],
    # The mutants that break the setup of other tests, each with mutants
    # whose tests do not need what it breaks.
    ['rebuild-refuses-pending', 'host-status-show-needs-2-17'],
    ['pending-needs-newer-api', 'host-status-detail-needs-2-17',
     'host-status-liveness-first'],
    # Every test that buries a server requires the rebuild microversion.
    ['max-microversion-not-bumped'],
    # A task state left on a buried server refuses its rebuild.
    ['pending-keeps-task-state'],
    # host_status null breaks the schema of every server shown without a
    # host (the cell0 and PENDING tests); the disruptive tests disable or
    # stop a compute, which the listing tests need.
    ['host-status-no-host-null', 'host-status-alive-inverted',
     'host-status-disabled-is-down'],
    # A 403 for every owner's show.
    ['host-status-unknown-only-fatal'],
    ['pending-status-from-2-106'],
    # A soft-deleted cell0 record changes what a rebuild with a deleted
    # port does: each alone.
    ['rebuild-soft-deletes-cell0'],
    ['rebuild-keeps-deleted-port'],
    # The second burial checks every kept attribute (keypair, config
    # drive, tags, user data): its mutants go with the mutants of the
    # other profiles, away from those that drop one.
    ['host-status-unknown-only-per-listing', 'reburial-drops-tags',
     'notify-reburial-as-rebuild-server'],
    ['host-status-unknown-only-inverted', 'rebuild-ignores-null-attributes',
     'notify-cell0-rebuild-legacy-rebuild'],
    ['host-status-owner-target-user', 'reburial-forgets-networks'],
    # Notifications (their own test class and bus) and networks "auto"
    # (its own class, a project without networks).  RB-48's test compares
    # every notification of a server with a burial's and a create's: its
    # mutants go where no other mutant changes what nova notifies.
    ['notify-pending-no-instance-update', 'notify-build-error-says-error',
     'notify-cell0-rebuild-new-event', 'bury-forgets-networks-auto'],
    # The cross-cell tests (a cloud of two cells).  The rebuild into the
    # first cell leaves every server rebuilt into the other building
    # forever (its test waits out the build timeout), the quota test's
    # among them: alone.
    ['quota-counts-first-cell-only', 'host-status-listing-first-cell-only'],
    ['cell0-rebuild-into-first-cell'],
    # A cell taken down (serial tests), each alone: the quota's and the
    # scheduler's also fail the listing test's burial while the cell is
    # down (a 500, a server in ERROR), before its listing is read; with
    # the first-cell rebuild mutant, that test's servers are not placed.
    ['down-cell-listing-skips-cell'],
    ['quota-count-fails-on-a-down-cell'],
    ['scheduler-fails-on-a-down-cell'],
]

# Verified requirements without a mutant, each with the reason.  Keep it
# (near) empty: a requirement no bug can fail is a requirement no test
# checks.
EXEMPT = {
    # nova keeps nothing of the personality files of a buried server: no
    # code of the series reads them, so no one-edit bug of it changes the
    # answer to such a server's rebuild.
    'RB-43': 'nova keeps no personality file of a buried server; no code '
             'of the series reads them',
    # Its test runs on a cloud with use_pending_state = False only (the
    # pending-off leg, where the wrong claim pending-on must fail); the
    # mutants leg runs on the default cloud, where it skips.
    'PEND-01': 'needs use_pending_state = False (pending-off leg); its '
               'counter-proof there is the wrong claim pending-on',
    # Three independent guards each turn the race into a 409: the claim of
    # the cell0 record (expected task state), the unique build request and
    # the compare-and-swap of the instance mapping.  A one-edit mutant
    # removes one of them and the others still hold.
    # The server's ID is the UUID of every record the rebuild moves (the
    # mapping, the build request, the request spec): a rebuild under
    # another UUID is not a small bug, and its orphans would outlive the
    # restore of nova on the shared cloud.
    'RB-03': 'the ID is the key of every record the rebuild moves; a '
             'rebuild under another UUID leaves orphans behind',
    'RB-19': 'three independent guards each refuse the second rebuild; '
             'a one-edit bug cannot make the race fail',
}

# Mutants of the functional stage's rolling upgrade
# (pending_aio/stages/upgrade.py), not of the plugin's tests: the leg
# applies each to the series it has just installed, while every nova-api
# still runs stock nova, restarts the conductors, buries a server and
# expects its per-step checks to fail; then it puts the code back.  Same
# fields as MUTANTS, without tests or batches.
LEG_MUTANTS = {
    'upgrade-pending-guard-removed': {
        'leg': 'upgrade',
        'what': 'no nova-api is ever found too old, so the conductor uses '
                'PENDING whatever their versions: a stock nova-api (service '
                'version 74) shows the server UNKNOWN',
        'file': 'nova/compute/utils.py',
        'old': '                   service.version < '
               'MIN_API_VERSION_PENDING_STATE)\n',
        'new': '                   False)\n',
        'programs': ['nova-conductor'],
    },
}
