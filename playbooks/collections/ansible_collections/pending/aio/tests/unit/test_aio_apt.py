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
"""The embedded cloud's system packages (``aio_apt``).

A package apt cannot provide is named, with what it is for; a set already
installed changes nothing and, once its marker is written, is not even
asked of dpkg; check mode installs nothing.
"""

import os
from unittest import mock

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_apt
from ansible_collections.pending.aio.plugins.module_utils import aio_common


class TestApt(aio_testcase.AioTestCase):

    @mock.patch.object(aio_apt, 'installed', autospec=True,
                       return_value=False)
    @mock.patch.object(aio_apt.subprocess, 'call', autospec=True)
    @mock.patch.object(aio_apt.subprocess, 'run', autospec=True)
    def test_missing_package_is_named(self, run, call, installed):
        call.side_effect = [0, 100]          # update ok, install fails
        run.side_effect = lambda cmd, **kw: mock.Mock(
            returncode=100 if cmd[-1] == 'ovn-central' else 0)
        exc = self.assertRaises(
            aio_common.AioError, aio_apt.apt_install,
            {'mariadb-server': 'MariaDB', 'ovn-central': 'OVN central'},
            self.path('apt.log'), self.path('marker'))
        self.assertIn('apt could not install ovn-central (OVN central)',
                      str(exc))
        self.assertNotIn('mariadb-server', str(exc).splitlines()[0])
        self.assertFalse(os.path.exists(self.path('marker')))

    @mock.patch.object(aio_apt, 'installed', autospec=True,
                       return_value=True)
    @mock.patch.object(aio_apt.subprocess, 'call', autospec=True)
    def test_nothing_to_install_changes_nothing(self, call, installed):
        marker = self.path('marker')
        self.assertEqual([], aio_apt.apt_install(
            {'curl': 'x'}, self.path('apt.log'), marker))
        call.assert_not_called()
        # the marker then spares even the dpkg query
        installed.reset_mock()
        self.assertEqual([], aio_apt.apt_install(
            {'curl': 'x'}, self.path('apt.log'), marker))
        installed.assert_not_called()

    @mock.patch.object(aio_apt, 'installed', autospec=True,
                       return_value=False)
    @mock.patch.object(aio_apt.subprocess, 'call', autospec=True)
    def test_check_mode_names_what_would_install(self, call, installed):
        self.assertEqual(['curl'], aio_apt.apt_install(
            {'curl': 'x'}, self.path('apt.log'), check=True))
        call.assert_not_called()
