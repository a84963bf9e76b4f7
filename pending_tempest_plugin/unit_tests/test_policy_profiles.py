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
"""policy_profiles.yaml is the one source of the host_status profiles."""

import json
import os

import jinja2
from oslotest import base
import yaml

from pending_tempest_plugin.common import expectations
from pending_tempest_plugin import config as project_config
from pending_tempest_plugin.conformance import policy_profiles

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# What nova's policy must say for the two profiles that change it.
OWNER_CHECK = 'role:admin or (role:reader and project_id:%(project_id)s)'


class TestPolicyProfiles(base.BaseTestCase):

    def test_profiles_and_rules(self):
        self.assertEqual(('admin_only', 'admin_or_owner', 'unknown_only'),
                         policy_profiles.NAMES)
        self.assertEqual({}, policy_profiles.rules('admin_only'))
        self.assertEqual(
            {'os_compute_api:servers:show:host_status': OWNER_CHECK},
            policy_profiles.rules('admin_or_owner'))
        self.assertEqual(
            {'os_compute_api:servers:show:host_status:unknown-only':
             OWNER_CHECK},
            policy_profiles.rules('unknown_only'))

    def test_expectations_cover_exactly_the_profiles(self):
        self.assertEqual(set(policy_profiles.NAMES),
                         set(expectations._VISIBLE))

    def test_option_choices_come_from_the_file(self):
        opt = {o.dest: o for o in project_config.NovaConformanceGroup}[
            'host_status_policy_profile']
        self.assertEqual(list(policy_profiles.NAMES), list(opt.type.choices))
        self.assertEqual(policy_profiles.NAMES,
                         project_config.POLICY_PROFILES)
        for name in policy_profiles.NAMES:
            self.assertEqual(policy_profiles.PROFILES[name]['description'],
                             opt.type.choices[name])

    def test_merge_replaces_only_owned_rules(self):
        policy = {'os_compute_api:os-hypervisors:list': 'role:admin',
                  'os_compute_api:servers:show:host_status': 'rule:x'}
        merged = policy_profiles.merge(policy, 'unknown_only')
        self.assertEqual(
            {'os_compute_api:os-hypervisors:list': 'role:admin',
             'os_compute_api:servers:show:host_status:unknown-only':
             OWNER_CHECK}, merged)
        self.assertEqual({'os_compute_api:os-hypervisors:list':
                          'role:admin'},
                         policy_profiles.merge(merged, 'admin_only'))

    def test_unknown_profile(self):
        e = self.assertRaises(policy_profiles.ProfileError,
                              policy_profiles.rules, 'everyone')
        self.assertIn('admin_only, admin_or_owner, unknown_only', str(e))

    def test_malformed_file(self):
        path = self.create_tempfiles([('p', 'x:\n  rules: []\n')],
                                     ext='.yaml')[0]
        self.assertRaises(policy_profiles.ProfileError,
                          policy_profiles.load, path)

    def test_embedded_cloud_template_renders_the_same_rules(self):
        # As Ansible renders it (trim_blocks, its to_json filter), with
        # aio_policy_profiles as group_vars loads it: the data file.
        env = jinja2.Environment(trim_blocks=True, keep_trailing_newline=True)
        env.filters['to_json'] = json.dumps
        with open(os.path.join(REPO, 'playbooks', 'roles', 'aio_nova',
                               'templates', 'nova-policy.yaml.j2')) as f:
            template = env.from_string(f.read())
        with open(os.path.join(REPO, 'playbooks', 'group_vars',
                               'all.yaml')) as f:
            self.assertIn('/pending_tempest_plugin/conformance/'
                          'policy_profiles.yaml', f.read())
        for name in policy_profiles.NAMES:
            text = template.render(
                aio_host_status_policy_profile=name,
                aio_policy_profiles=policy_profiles.load())
            self.assertEqual(policy_profiles.rules(name),
                             yaml.safe_load(text), name)
