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
"""The one-shot bootstrap steps (``aio_steps``).

A failed step stops the playbook naming its service, what failed and its
log; a done step (its marker) runs nothing; check mode runs nothing; a
secret goes in the environment, never the command line or the log.
"""

import os

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_common
from ansible_collections.pending.aio.plugins.module_utils import aio_steps


class TestSteps(aio_testcase.AioTestCase):

    def step(self, name, cmd, marker=True, what=None):
        step = {'name': name, 'what': what or name + ' db sync',
                'log': self.path('logs', name + '.log'),
                'cmd': ['bash', '-c', cmd]}
        if marker:
            step['marker'] = self.path(name + '-synced')
        return step

    def test_failed_step_names_service_step_and_log(self):
        step = self.step('glance', 'echo "cannot connect to MySQL"; exit 3',
                         what='glance-manage db_sync')
        exc = self.assertRaises(aio_common.AioError, aio_steps.run_steps,
                                [step])
        self.assertIn('glance: glance-manage db_sync failed (exit 3); see %s'
                      % step['log'], str(exc))
        self.assertIn('cannot connect to MySQL', str(exc))
        self.assertFalse(os.path.exists(step['marker']))

    def test_marker_makes_the_step_run_once(self):
        step = self.step('x', 'echo ran')
        self.assertEqual(['x'], aio_steps.run_steps([step]))
        self.assertEqual([], aio_steps.run_steps([step]))
        with open(step['log']) as f:
            self.assertEqual(1, f.read().splitlines().count('ran'))

    def test_creates_skips_without_writing(self):
        made = self.path('made')
        step = dict(self.step('x', 'echo ran > %s' % made, marker=False),
                    creates=made)
        self.assertEqual(['x'], aio_steps.run_steps([step]))
        self.assertEqual([], aio_steps.run_steps([step]))
        with open(made) as f:
            self.assertEqual('ran\n', f.read())

    def test_check_mode_runs_nothing(self):
        step = self.step('x', 'touch %s' % self.path('touched'))
        self.assertEqual(['x'], aio_steps.run_steps([step], check=True))
        self.assertFalse(os.path.exists(self.path('touched')))
        self.assertFalse(os.path.exists(step['marker']))

    def test_secret_goes_in_the_environment_not_the_command(self):
        step = dict(self.step('x', 'echo "$PW" > %s' % self.path('pw')),
                    env={'PORT': 4369}, secret_env={'PW': 's3cr3t'})
        aio_steps.run_steps([step])
        with open(self.path('pw')) as f:
            self.assertEqual('s3cr3t\n', f.read())
        with open(step['log']) as f:
            self.assertNotIn('s3cr3t', f.read())

    def test_runs_concurrently_and_marks_each(self):
        # b waits for a file that a writes: only concurrent runs finish.
        flag = self.path('flag')
        ran = aio_steps.run_steps([
            self.step('b', 'for i in $(seq 100); do test -e %s && exit 0; '
                           'sleep 0.05; done; exit 1' % flag),
            self.step('a', 'touch %s' % flag)])
        self.assertEqual(['b', 'a'], ran)
        self.assertTrue(os.path.exists(self.path('a-synced')))
        self.assertTrue(os.path.exists(self.path('b-synced')))
        self.assertEqual([], aio_steps.run_steps(
            [self.step('a', 'exit 9'), self.step('b', 'exit 9')]),
            'markers skip done steps')

    def test_failure_names_service_what_and_log(self):
        exc = self.assertRaises(aio_common.AioError, aio_steps.run_steps, [
            self.step('glance', 'true'),
            self.step('neutron', 'echo no such table; exit 4'),
            self.step('nova', 'exit 5', marker=False)])
        log = self.path('logs', 'neutron.log')
        self.assertIn('neutron: neutron db sync failed (exit 4); '
                      'see %s' % log, str(exc))
        self.assertIn('no such table', str(exc))
        self.assertIn('ERROR: nova: nova db sync failed (exit 5)', str(exc))
        self.assertTrue(os.path.exists(self.path('glance-synced')))
        self.assertFalse(os.path.exists(self.path('neutron-synced')))
