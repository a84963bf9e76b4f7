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
"""What the configuration lets a test do: skip messages in one place.

Each function returns None when the test may run, or the skip message,
which always names the option to set.  Skips come from configuration only:
an option that claims a feature while another option it needs is missing is
a configuration error (InvalidConfiguration), never a silent skip.
"""

from tempest import config
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin import config as project_config

CONF = config.CONF


def _group():
    return CONF.nova_conformance


def config_problems(group=None):
    """Contradictions in [nova_conformance], as sentences."""
    group = group or _group()
    problems = []
    if group.pending_state_enabled and not group.pending_state_microversion:
        problems.append('pending_state_enabled = True needs '
                        'pending_state_microversion: without it every PENDING '
                        'test would skip')
    if group.disruptive_tests and not group.disruptive_hosts:
        problems.append('disruptive_tests = True needs disruptive_hosts, the '
                        'compute hosts the tests may disable, force down and '
                        'stop (as os-services names them)')
    if (group.cell0_rebuild_microversion
            and group.novalidhost_trigger == 'trait'
            and not capacity_hosts(group)):
        problems.append('cell0_rebuild_microversion with novalidhost_trigger '
                        '= trait needs capacity_hosts, the compute hosts (as '
                        'os-services names them) the trigger may add its '
                        'capacity trait to (disruptive_hosts when it is '
                        'empty): the suite writes to no provider the '
                        'operator did not name')
    claimed = claimed_cells(group)
    if (len(claimed) > 1 and group.cell0_rebuild_microversion
            and group.novalidhost_trigger == 'trait'
            and len(host_cells(group)) < 2):
        problems.append('compute_host_cells names %d cells, but '
                        'capacity_hosts (or disruptive_hosts) lists hosts of '
                        '%s: the cross-cell rebuild tests need a host of two '
                        'cells or more to give capacity to'
                        % (len(claimed),
                           ', '.join(sorted(host_cells(group))) or 'none'))
    problems.extend(down_cell_problems(group, claimed))
    if bool(group.compute_stop_command) != bool(group.compute_start_command):
        problems.append('compute_stop_command and compute_start_command are '
                        'set together: a stopped compute must be started '
                        'again')
    problems.extend(profile_service_problems(group))
    problems.extend(quota_service_problems(group))
    return problems


def down_cell_problems(group, claimed):
    """What is wrong with disruptive_cells and the cell commands."""
    problems = []
    cells = list(getattr(group, 'disruptive_cells', None) or [])
    stop = getattr(group, 'cell_stop_command', None)
    start = getattr(group, 'cell_start_command', None)
    if bool(stop) != bool(start):
        problems.append('cell_stop_command and cell_start_command are set '
                        'together: a stopped cell must be started again')
    if not cells:
        return problems
    if not group.disruptive_tests:
        problems.append('disruptive_cells needs disruptive_tests = True: '
                        'taking a cell down disrupts the cloud')
    if not stop:
        problems.append('disruptive_cells needs cell_stop_command and '
                        'cell_start_command, which stop and start a cell\'s '
                        'database')
    unknown = [c for c in cells if c not in claimed]
    if unknown:
        problems.append('disruptive_cells names %s, not a cell of '
                        'compute_host_cells (%s)' % (
                            ', '.join(unknown), ', '.join(claimed) or 'none'))
    elif claimed and not set(claimed) - set(cells):
        problems.append('disruptive_cells lists every claimed cell: one must '
                        'stay up for the down-cell tests\' servers')
    return problems


def capacity_hosts(group=None):
    """The hosts whose providers the NoValidHost trigger may give capacity.

    ``capacity_hosts``, or ``disruptive_hosts`` when it is empty.
    """
    group = group or _group()
    return list(getattr(group, 'capacity_hosts', None)
                or group.disruptive_hosts or [])


def _service_problems(option, services, names, own_option, own):
    """What is wrong with a NAME:SERVICE_TYPE option, as sentences.

    ``names``: the names it may key (``own``, the value of
    ``own_option``, excluded).
    """
    problems = []
    for name in sorted(services):
        if name not in names:
            problems.append('%s names %r, not one of %s' % (
                option, name, ', '.join(names)))
        elif name == own:
            problems.append('%s names %s, the value of %s: list only the '
                            'others' % (option, name, own_option))
        if not (services[name] or '').strip():
            problems.append('%s: %s has no service type' % (option, name))
        elif services[name].strip() == 'compute':
            problems.append('%s: %s names the service type compute, the '
                            'cloud\'s own endpoint: name its own '
                            'nova-api\'s' % (option, name))
    types = [t for t in services.values() if t]
    if len(set(types)) != len(types):
        problems.append('%s gives one service type to several: %s' % (
            option, ', '.join('%s:%s' % kv for kv in sorted(
                services.items()))))
    return problems


def quota_service_problems(group):
    """What is wrong with quota_counting_services, as sentences."""
    return _service_problems(
        'quota_counting_services',
        getattr(group, 'quota_counting_services', None) or {},
        project_config.QUOTA_COUNTING_MODES, 'quota_counting',
        group.quota_counting)


def profile_service_problems(group):
    """What is wrong with host_status_profile_services, as sentences."""
    return _service_problems(
        'host_status_profile_services',
        getattr(group, 'host_status_profile_services', None) or {},
        tuple(project_config.POLICY_PROFILES), 'host_status_policy_profile',
        group.host_status_policy_profile)


def host_status_profiles(group=None):
    """[(profile, catalog service type or None)]: the profiles to check.

    The cloud's own profile first (None: the compute endpoint of
    ``[compute] catalog_type``), then each of
    ``host_status_profile_services`` in name order.
    """
    group = group or _group()
    services = getattr(group, 'host_status_profile_services', None) or {}
    return [(group.host_status_policy_profile, None)] + sorted(
        services.items())


def quota_countings(group=None):
    """[(mode, catalog service type or None)]: the modes to check.

    The cloud's own quota counting first (None: the compute endpoint of
    ``[compute] catalog_type``), then each of ``quota_counting_services``
    in name order.
    """
    group = group or _group()
    _check(group)
    services = getattr(group, 'quota_counting_services', None) or {}
    return [(group.quota_counting, None)] + sorted(services.items())


def _check(group):
    problems = config_problems(group)
    if problems:
        raise lib_exc.InvalidConfiguration(
            '[nova_conformance]: ' + '; '.join(problems))


def pending_microversion(group=None):
    """The test requests the PENDING microversion."""
    group = group or _group()
    _check(group)
    if not group.pending_state_microversion:
        return ('The cloud lacks the PENDING state: set [nova_conformance] '
                'pending_state_microversion to the microversion that '
                'introduced it.')
    return None


def pending_enabled(group=None):
    """The test expects NoValidHost to give PENDING."""
    group = group or _group()
    return pending_enabled_any_trigger(group) or novalidhost(group)


def cell0_rebuild(group=None):
    """The test rebuilds a server buried in cell0 at the new microversion."""
    group = group or _group()
    return cell0_rebuild_microversion(group) or novalidhost(group)


def pending_enabled_any_trigger(group=None):
    """The test expects PENDING, whatever makes its server fail."""
    group = group or _group()
    reason = pending_microversion(group)
    if reason:
        return reason
    if not group.pending_state_enabled:
        return ('The cloud does not put servers in PENDING: set '
                '[nova_conformance] pending_state_enabled = True if nova '
                'runs with [DEFAULT] use_pending_state = True.')
    return None


def cell0_rebuild_microversion(group=None):
    """The test requests the cell0 rebuild microversion."""
    group = group or _group()
    _check(group)
    if not group.cell0_rebuild_microversion:
        return ('The cloud lacks the cell0 rebuild: set [nova_conformance] '
                'cell0_rebuild_microversion to the microversion that '
                'introduced it.')
    return None


def novalidhost(group=None):
    """The test needs a server that fails to schedule."""
    group = group or _group()
    if group.novalidhost_trigger == 'none':
        return ('No NoValidHost trigger: set [nova_conformance] '
                'novalidhost_trigger = trait (needs admin and placement).')
    return None


def disruptive(stop=False, group=None):
    """The test disables, forces down or (``stop``) stops a compute."""
    group = group or _group()
    _check(group)
    if not group.disruptive_tests:
        return ('Disruptive test: set [nova_conformance] disruptive_tests = '
                'True to run it (it disables, forces down or stops a '
                'compute service and restores it).')
    if stop and not group.compute_stop_command:
        return ('Needs a stopped compute: set [nova_conformance] '
                'compute_stop_command and compute_start_command.')
    return None


def stopped_compute(group=None):
    """The test stops a compute (and starts it again)."""
    return disruptive(stop=True, group=group)


def new_microversion(group=None):
    """The test needs the PENDING or the cell0 rebuild microversion."""
    group = group or _group()
    if group.cell0_rebuild_microversion:
        return None
    return pending_microversion(group)


def build_failure(group=None):
    """The test needs a server whose build fails on every host."""
    group = group or _group()
    value = group.build_failure_metadata
    if not value:
        return ('No way to make a build fail on every host: set '
                '[nova_conformance] build_failure_metadata to the KEY=VALUE '
                'server metadata a test virt driver fails builds for.')
    if '=' not in value or not value.split('=', 1)[0]:
        raise lib_exc.InvalidConfiguration(
            '[nova_conformance] build_failure_metadata = %r: expected '
            'KEY=VALUE' % value)
    return None


def pending_disabled(group=None):
    """Skip message unless the configuration says NoValidHost gives ERROR.

    For the option-off tests: they run when ``pending_state_enabled`` is
    False (nova's ``use_pending_state`` off), with a NoValidHost trigger.
    """
    group = group or CONF.nova_conformance
    reason = novalidhost(group)
    if reason:
        return reason
    if group.pending_state_enabled:
        return ('Checks nova with [DEFAULT] use_pending_state = False, while '
                '[nova_conformance] pending_state_enabled = True says the '
                'cloud puts servers in PENDING: set it to False to run this '
                'test on such a cloud.')
    return None


def trusted_certs(conf=None):
    """Skip message unless tempest.conf says the cloud verifies images.

    Tempest's own options: ``[compute] certified_image_ref`` (a signed
    image) and ``[compute] certified_image_trusted_certs``.
    """
    conf = conf or CONF
    compute = conf.compute
    if not (compute.certified_image_ref
            and compute.certified_image_trusted_certs):
        return ('The cloud does not declare image signature verification: '
                'set [compute] certified_image_ref and [compute] '
                'certified_image_trusted_certs (nova with [glance] '
                'verify_glance_signatures and enable_certificate_validation)'
                '.')
    return None


def host_hint_filters(conf=None):
    """Skip message unless the scheduler honours same_host/different_host.

    Tempest's own option ``[compute-feature-enabled]
    scheduler_enabled_filters`` ("all", or the filters nova's
    ``[filter_scheduler] enabled_filters`` lists).
    """
    conf = conf or CONF
    enabled = conf.compute_feature_enabled.scheduler_enabled_filters
    missing = [name for name in ('SameHostFilter', 'DifferentHostFilter')
               if 'all' not in enabled and name not in enabled]
    if missing:
        return ('The same_host and different_host hints need %s: not in '
                '[compute-feature-enabled] scheduler_enabled_filters.'
                % ' and '.join(missing))
    return None


def claimed_cells(group=None):
    """The cells ``compute_host_cells`` names, sorted (none: [])."""
    group = group or _group()
    return sorted(set((getattr(group, 'compute_host_cells', None)
                       or {}).values()))


def host_cells(group=None):
    """{cell: [hosts of capacity_hosts in it, in their order]}, claimed.

    Only the hosts of ``capacity_hosts`` (the ones a test may give
    capacity to) whose cell ``compute_host_cells`` names.
    """
    group = group or _group()
    cells = {}
    claimed = getattr(group, 'compute_host_cells', None) or {}
    for host in capacity_hosts(group):
        if claimed.get(host):
            cells.setdefault(claimed[host], []).append(host)
    return cells


def two_cells(group=None):
    """The test puts servers on hosts of two cells (a rebuild each)."""
    group = group or _group()
    reason = cell0_rebuild(group)
    if reason:
        return reason
    if len(host_cells(group)) < 2:
        return ('Needs capacity hosts in two cells: set [nova_conformance] '
                'compute_host_cells (HOST:CELL) and list a host of each '
                'cell in capacity_hosts.')
    return None


def down_cell(group=None):
    """The test takes a cell down (its database stopped) and back up.

    The cell is the first of ``disruptive_cells``; capacity hosts of it
    and of a live cell are needed (a server in each).
    """
    group = group or _group()
    reason = disruptive(group=group) or two_cells(group)
    if reason:
        return reason
    if not (getattr(group, 'disruptive_cells', None)
            and group.cell_stop_command):
        return ('Disruptive test of a cell that is down: set '
                '[nova_conformance] disruptive_cells (the cell it may take '
                'down), cell_stop_command and cell_start_command.')
    cells = host_cells(group)
    if group.disruptive_cells[0] not in cells:
        return ('Needs a capacity host in the cell it takes down: list a '
                'host of %s (compute_host_cells) in [nova_conformance] '
                'capacity_hosts.' % group.disruptive_cells[0])
    return None


def two_computes(conf=None):
    """Skip message unless the cloud declares two compute hosts or more."""
    conf = conf or CONF
    if conf.compute.min_compute_nodes < 2:
        return ('The test needs a second compute host: set [compute] '
                'min_compute_nodes to 2 or more.')
    return None


def volumes(conf=None):
    """Skip message unless a volume service is available."""
    conf = conf or CONF
    if not conf.service_available.cinder:
        return ('Boot from volume needs a volume service: [service_available]'
                ' cinder is False.')
    return None


def auto_allocated_network(conf=None):
    """Skip message unless the cloud can auto-allocate a network.

    Networks "auto" (get-me-a-network) needs Neutron's
    ``auto-allocated-topology`` extension, listed in Tempest's ``[network-
    feature-enabled] api_extensions``; the cloud must also have a default
    external network and a default subnet pool, or nova refuses the
    server (the test then fails saying so).
    """
    conf = conf or CONF
    missing = networks(conf)
    if missing:
        return missing
    extensions = conf.network_feature_enabled.api_extensions
    if 'all' not in extensions and 'auto-allocated-topology' not in extensions:
        return ('Networks "auto" needs the auto-allocated-topology '
                'extension: not in [network-feature-enabled] api_extensions.')
    return None


def networks(conf=None):
    """Skip message unless a network service is available."""
    conf = conf or CONF
    if not conf.service_available.neutron:
        return ('Requested networks need a network service: '
                '[service_available] neutron is False.')
    return None


def notifications(group=None):
    """The test reads nova's versioned notifications on the message bus."""
    group = group or _group()
    if not group.notification_transport_url:
        return ('Notifications travel on the message bus: set '
                '[nova_conformance] notification_transport_url to the '
                'transport URL nova sends its versioned notifications to '
                '(the suite listens on a queue of its own).')
    return None
