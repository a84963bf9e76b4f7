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
"""The cloud's directories and configuration files (``aio_files``).

Only what differs is written, check mode writes nothing and shows what it
would, and a diff never shows a secret file's content.
"""

import os
import stat

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_files


class TestFiles(aio_testcase.AioTestCase):

    def test_writes_only_what_differs_and_diffs_it(self):
        conf = self.path('etc', 'a.conf')
        spec = {'dirs': [{'path': self.path('etc')}],
                'files': [{'path': conf, 'content': 'x = 1\n'}]}
        did, diffs = aio_files.write_files(spec)
        self.assertEqual([self.path('etc'), conf], did)
        self.assertEqual((conf, '', 'x = 1\n'), (
            diffs[1]['after_header'], diffs[1]['before'], diffs[1]['after']))
        self.assertEqual(([], []), aio_files.write_files(spec))
        self.assertEqual(0o644, stat.S_IMODE(os.stat(conf).st_mode))

    def test_check_mode_changes_nothing_and_shows_the_change(self):
        conf = self.path('a.conf')
        with open(conf, 'w') as f:
            f.write('x = 1\n')
        spec = {'files': [{'path': conf, 'content': 'x = 2\n'},
                          {'path': self.path('new'), 'content': 'n\n'}]}
        did, diffs = aio_files.write_files(spec, check=True)
        self.assertEqual([conf, self.path('new')], did)
        self.assertEqual(('x = 1\n', 'x = 2\n'),
                         (diffs[0]['before'], diffs[0]['after']))
        with open(conf) as f:
            self.assertEqual('x = 1\n', f.read())
        self.assertFalse(os.path.exists(self.path('new')))

    def test_secret_file_is_owner_only_and_never_in_a_diff(self):
        conf = self.path('nova.conf')
        spec = {'files': [{'path': conf, 'mode': '0600', 'secret': True,
                           'content': 'password = s3cr3t\n'}]}
        _, diffs = aio_files.write_files(spec)
        self.assertEqual(0o600, stat.S_IMODE(os.stat(conf).st_mode))
        self.assertNotIn('s3cr3t', repr(diffs))
        spec['files'][0]['content'] = 'password = other\n'
        _, diffs = aio_files.write_files(spec, check=True)
        self.assertNotIn('s3cr3t', repr(diffs))
        self.assertNotIn('other', repr(diffs))

    def test_mode_change_alone_is_a_change(self):
        conf = self.path('a.conf')
        spec = {'files': [{'path': conf, 'content': 'x\n', 'mode': '0644'}]}
        aio_files.write_files(spec)
        spec['files'][0]['mode'] = '0600'
        did, diffs = aio_files.write_files(spec)
        self.assertEqual([conf], did)
        self.assertEqual(('0644\n', '0600\n'),
                         (diffs[0]['before'], diffs[0]['after']))
        self.assertEqual(0o600, stat.S_IMODE(os.stat(conf).st_mode))
