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
"""Options this plugin registers in tempest.conf.

Everything lives in one group of our own, ``[nova_conformance]``: none of it
means the same thing as an existing Tempest option.  A feature whose
microversion option is unset is treated as absent from the cloud and its tests
skip, saying which option to set.
"""

from oslo_config import cfg

from pending_tempest_plugin.conformance import policy_profiles

GROUP_NAME = 'nova_conformance'

nova_conformance_group = cfg.OptGroup(
    name=GROUP_NAME,
    title='Nova PENDING state, host_status and cell0 rebuild conformance',
    help='What the cloud under test implements and how the suite may '
         'exercise it.')

# The host_status policy profiles and their descriptions come from
# conformance/policy_profiles.yaml, which also holds the policy rules the
# embedded cloud and the devstack plugin write for each.
POLICY_PROFILES = policy_profiles.NAMES
# How nova may count quota usage ([nova_conformance] quota_counting).
QUOTA_COUNTING_MODES = ('db', 'placement', 'unified_limits')

NovaConformanceGroup = [
    cfg.BoolOpt('pending_state_enabled',
                default=False,
                help='Whether the cloud runs nova with '
                     '[DEFAULT] use_pending_state = True, so that a server '
                     'whose scheduling fails with NoValidHost goes to '
                     'PENDING instead of ERROR.'),
    cfg.StrOpt('pending_state_microversion',
               default=None,
               help='The compute API microversion that introduced the '
                    'PENDING server status (2.105 in the reference '
                    'implementation).  Unset means the cloud lacks the '
                    'feature: its tests skip.'),
    cfg.StrOpt('cell0_rebuild_microversion',
               default=None,
               help='The compute API microversion that allows rebuilding a '
                    'server buried in cell0 (2.106 in the reference '
                    'implementation).  Unset means the cloud lacks the '
                    'feature: its tests skip.'),
    cfg.StrOpt('host_status_policy_profile',
               default='admin_only',
               choices=[(name, body['description']) for name, body
                        in policy_profiles.PROFILES.items()],
               help='The os_compute_api:servers:show:host_status policy '
                    'profile the cloud runs.'),
    cfg.DictOpt('host_status_profile_services',
                default={},
                help='PROFILE:SERVICE_TYPE pairs: more compute endpoints '
                     'of this same cloud (same databases, computes and '
                     'servers), each a nova-api whose policy is another '
                     'host_status policy profile, found in the catalog '
                     'under SERVICE_TYPE (e.g. "admin_or_owner:'
                     'compute-admin_or_owner,unknown_only:compute-'
                     'unknown_only").  Each host_status visibility test '
                     'then checks every profile in one pass over each '
                     'host state: one stopped compute serves them all.  '
                     'Empty (the default): the cloud\'s one profile, '
                     'host_status_policy_profile.  A profile appears once: '
                     'not host_status_policy_profile again.'),
    cfg.BoolOpt('disruptive_tests',
                default=False,
                help='Whether tests may disturb a compute service of the '
                     'cloud: disable it, force it down or stop it (each '
                     'change is undone when the test ends).  These tests '
                     'need admin credentials and run serially; leave this '
                     'False on a shared production cloud.'),
    cfg.ListOpt('disruptive_hosts',
                default=[],
                help='The compute hosts (as os-services names them) the '
                     'disruptive tests may disable, force down and stop; '
                     'required with disruptive_tests.  No other host is '
                     'ever touched: a test whose server the scheduler '
                     'placed on another host first moves it to the first '
                     'of these with an admin cold migration (microversion '
                     '2.56), and the service controls refuse any host not '
                     'listed.'),
    cfg.ListOpt('capacity_hosts',
                default=[],
                help='The compute hosts (as os-services names them) to whose '
                     'resource providers the NoValidHost trigger may add its '
                     'capacity trait, so that a buried server can be '
                     'rebuilt: the only placement write the suite makes to '
                     'a provider of the cloud (one random CUSTOM_ trait, '
                     'removed when the test ends).  The first listed host '
                     'that has a compute node takes it.  Empty (the '
                     'default): disruptive_hosts.  Required, one way or '
                     'the other, with cell0_rebuild_microversion and '
                     'novalidhost_trigger = trait.'),
    cfg.DictOpt('compute_host_cells',
                default={},
                help='The cell of nova\'s cells v2 each compute host is in, '
                     'as HOST:CELL pairs (hosts as os-services names them, '
                     'cells as nova-manage cell_v2 list_cells names them): '
                     'nova\'s API does not say, the operator does.  The '
                     'cross-cell tests skip unless it names two cells or '
                     'more; then capacity_hosts must list a host of two '
                     'of them (a rebuild lands in each cell in turn), or '
                     'the claims are refused.  Empty (the default): the '
                     'cloud is not claimed to run several cells.'),
    cfg.ListOpt('disruptive_cells',
                default=[],
                help='The cells (as compute_host_cells names them) whose '
                     'database the down-cell tests may stop, with '
                     'cell_stop_command, and start again: nova then reads '
                     'the cell as down.  Needs disruptive_tests, '
                     'compute_host_cells with a host of each listed cell, '
                     'and a claimed cell left out (where the tests\' '
                     'servers live on).  The first listed is the one taken '
                     'down.  Empty (the default): the down-cell tests skip; '
                     'leave it empty on a cloud in production.'),
    cfg.StrOpt('cell_stop_command',
               default=None,
               help='Command that stops the database of one cell of '
                    'nova\'s cells v2, run on the machine that runs '
                    'Tempest; {cell} is replaced by the cell as '
                    'compute_host_cells names it.  Its services keep '
                    'running: nova reads the cell as down, as when its '
                    'database is unreachable.  Example: "supervisorctl '
                    'stop mariadb-{cell}" (the embedded cloud in two '
                    'cells, whose cell2 has a MariaDB of its own).'),
    cfg.StrOpt('cell_start_command',
               default=None,
               help='Command that starts the database of one cell again; '
                    'same placeholder as cell_stop_command.  Required '
                    'whenever cell_stop_command is set.'),
    cfg.StrOpt('compute_stop_command',
               default=None,
               help='Command that stops the nova-compute service of one '
                    'host, run on the machine that runs Tempest; {host} is '
                    'replaced by the service host as os-services names it. '
                    'The compute only has to stop reporting: freezing it '
                    'does too.  Examples: "sudo -n systemctl stop '
                    'devstack@n-cpu" (devstack plugin: the Tempest node\'s '
                    'own compute), "supervisorctl signal STOP '
                    'nova-compute-{host}" (the embedded cloud, which '
                    'freezes it).  Unset means tests that need a stopped '
                    'compute (host_status UNKNOWN) skip.'),
    cfg.StrOpt('compute_start_command',
               default=None,
               help='Command that starts the nova-compute service of one '
                    'host again; same placeholders as '
                    'compute_stop_command.  Required whenever '
                    'compute_stop_command is set.'),
    cfg.IntOpt('compute_command_timeout',
               default=60,
               min=1,
               help='Seconds compute_stop_command, compute_start_command, '
                    'cell_stop_command or cell_start_command may run '
                    'before it is killed and the test fails.'),
    cfg.IntOpt('service_state_timeout',
               default=300,
               min=1,
               help='Seconds to wait for os-services to report the state a '
                    'test asked for, or the original state when it is '
                    'restored.  A stopped compute reads "down" only after '
                    'nova\'s [DEFAULT] service_down_time (60 s by default), '
                    'so keep this well above it.'),
    cfg.FloatOpt('poll_interval',
                 default=None,
                 min=0.1,
                 help='Seconds between two polls of the plugin\'s waiters '
                      '(a server, volume, image or os-services state, '
                      'leftovers after a delete).  Unset: the group\'s '
                      'build_interval ([compute], [volume] or [image]), '
                      'which Tempest reads in whole seconds.  A cloud '
                      'that answers in milliseconds may be polled more '
                      'often; each poll is one GET.'),
    cfg.IntOpt('concurrent_rebuild_attempts',
               default=20,
               min=1,
               help='How many buried servers the concurrency test races two '
                    'cell0 rebuilds on (one attempt may not overlap the two '
                    'requests).  Each attempt boots, rebuilds and deletes '
                    'one server.'),
    cfg.StrOpt('novalidhost_trigger',
               default='trait',
               choices=[
                   ('trait', 'A private flavor requires a random '
                             'CUSTOM_ trait no resource provider has; '
                             'adding it to one compute provider makes '
                             'capacity appear again.  Needs admin and '
                             'placement.'),
                   ('none', 'The suite has no way to cause NoValidHost on '
                            'this cloud: tests that need it skip.'),
               ],
               help='How tests make scheduling fail with NoValidHost '
                    'without touching the capacity other users see.'),
    cfg.StrOpt('quota_counting',
               default='db',
               choices=[
                   ('db', 'Legacy counting from the cell databases (nova '
                          'default).'),
                   ('placement', '[quota] count_usage_from_placement = '
                                 'True.'),
                   ('unified_limits', '[quota] driver = '
                                      'nova.quota.UnifiedLimitsDriver.'),
               ],
               help='How the cloud counts quota usage; the expected outcome '
                    'of the quota recheck of a cell0 rebuild depends on '
                    'it.'),
    cfg.BoolOpt('quota_recheck',
                default=True,
                help='[quota] recheck_quota of the cloud\'s nova-conductor '
                     '(nova\'s default True): whether nova counts the quota '
                     'again after scheduling.  The quota tests pass either '
                     'way (the check of a cell0 rebuild before scheduling '
                     'must refuse on its own when the recheck is off); the '
                     'report names the setting the verdict was reached '
                     'under.'),
    cfg.DictOpt('quota_counting_services',
                default={},
                help='MODE:SERVICE_TYPE pairs: more compute endpoints of '
                     'this same cloud (same databases, computes and '
                     'servers, same use_pending_state and microversions), '
                     'each a nova-api whose control services count quota '
                     'in another mode (db, placement or unified_limits), '
                     'found in the catalog under SERVICE_TYPE (e.g. '
                     '"unified_limits:compute-unified-limits").  Each quota '
                     'recheck test of the cell0 rebuild then checks the '
                     'cloud\'s own mode, then every mode listed here, one '
                     'after another.  Empty (the default): quota_counting '
                     'alone.  A mode appears once: not quota_counting '
                     'again.'),
    cfg.StrOpt('build_failure_metadata',
               help='KEY=VALUE server metadata that makes the build of the '
                    'server fail on every compute host of the cloud (a '
                    'test virt driver: the embedded cloud declares its '
                    'own; no production cloud has one).  The tests of '
                    'failed builds that are not a lack of capacity (ERROR, '
                    'never PENDING; not rebuilt from cell0) skip without '
                    'it.'),
    cfg.StrOpt('notification_transport_url',
               secret=True,
               default=None,
               help='oslo.messaging transport URL of the message bus nova '
                    'sends its versioned notifications to (nova\'s '
                    '[oslo_messaging_notifications] transport_url, or its '
                    '[DEFAULT] transport_url), e.g. '
                    'rabbit://USER:PASSWORD@HOST:5672/.  The notification '
                    'tests listen on a pool queue of their own, named after '
                    'the run\'s resource prefix and removed when their class '
                    'ends: they never take a message from the cloud\'s own '
                    'consumers.  Secret: no artifact of the run shows it. '
                    'Unset means the notification tests skip.'),
    cfg.StrOpt('notification_topic',
               default='versioned_notifications',
               help='The topic of nova\'s versioned notifications (nova\'s '
                    '[notifications] versioned_notifications_topics).'),
    cfg.StrOpt('notification_exchange',
               default='nova',
               help='The exchange nova sends its notifications to (nova\'s '
                    'control_exchange, "nova" unless the deployment changed '
                    'it).'),
    cfg.BoolOpt('legacy_notifications',
                default=False,
                help='A claim: nova also sends its unversioned (legacy) '
                     'notifications to the bus of notification_transport_url '
                     '(nova\'s [notifications] notification_format "both"; '
                     'nova\'s own default is "unversioned", which sends no '
                     'versioned ones, and the notification tests need '
                     'those).  The notification tests then read the legacy '
                     'ones too (on legacy_notification_topic) and hold them '
                     'to what they hold the versioned ones to.'),
    cfg.StrOpt('legacy_notification_topic',
               default='notifications',
               help='The topic of nova\'s unversioned notifications (nova\'s '
                    '[oslo_messaging_notifications] topics).'),
]


def register_opts(conf):
    conf.register_group(nova_conformance_group)
    conf.register_opts(NovaConformanceGroup, group=nova_conformance_group)


def list_opts():
    """Options for oslo-config-generator (the oslo.config.opts entry)."""
    return [(nova_conformance_group, NovaConformanceGroup)]
