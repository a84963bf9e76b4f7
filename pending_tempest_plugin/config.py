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

GROUP_NAME = 'nova_conformance'

nova_conformance_group = cfg.OptGroup(
    name=GROUP_NAME,
    title='Nova PENDING state, host_status and cell0 rebuild conformance',
    help='What the cloud under test implements and how the suite may '
         'exercise it.')

POLICY_PROFILES = ('admin_only', 'admin_or_owner', 'unknown_only')

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
               choices=[
                   ('admin_only', 'Nova default: only admin sees '
                                  'host_status.'),
                   ('admin_or_owner', 'Admin and the server owner see every '
                                      'host_status value.'),
                   ('unknown_only', 'Admin sees every value; the owner sees '
                                    'host_status only when it is UNKNOWN.'),
               ],
               help='The os_compute_api:servers:show:host_status policy '
                    'profile the cloud runs.'),
]


def register_opts(conf):
    conf.register_group(nova_conformance_group)
    conf.register_opts(NovaConformanceGroup, group=nova_conformance_group)


def list_opts():
    """Options for oslo-config-generator (the oslo.config.opts entry)."""
    return [(nova_conformance_group, NovaConformanceGroup)]
