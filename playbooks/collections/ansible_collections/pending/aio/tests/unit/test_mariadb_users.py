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
"""pending.aio.mariadb_users: the services' MariaDB user and databases."""

from backend_fakes import BackendTestCase
import fixtures

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)
from ansible_collections.pending.aio.plugins.modules import mariadb_users

PW = 's3cret-Pw'
DBS = ['keystone', 'nova_api', 'nova']


class TestMariadbUsers(BackendTestCase):

    def users(self, counts, check=False, password=PW, databases=DBS):
        run = self.fake([(['-e'], counts, 0)])
        result = aio_backends.mariadb_users('/etc/my.cnf', 'openstack',
                                            password, databases, check=check)
        return run, result

    def writes(self, run):
        return [c for c in run.calls if '-e' not in c[0]]

    def test_everything_present_writes_nothing(self):
        run, (changed, details) = self.users('2\n3\n')
        self.assertFalse(changed)
        self.assertEqual({'user_rows': 2, 'databases_present': 3}, details)
        self.assertEqual([], self.writes(run))
        argv = run.calls[0][0]
        self.assertEqual(['mysql', '--defaults-file=/etc/my.cnf', '-uroot',
                          '-N', '-e'], argv[:5])
        self.assertIn("WHERE user='openstack'", argv[5])
        self.assertIn("IN ('keystone','nova_api','nova')", argv[5])

    def test_a_missing_database_creates_them_password_on_stdin(self):
        run, (changed, _) = self.users('2\n2\n')
        self.assertTrue(changed)
        [(argv, sql, _)] = self.writes(run)
        self.assertEqual(['mysql', '--defaults-file=/etc/my.cnf', '-uroot',
                          '-N'], argv)
        for host in ('localhost', '127.0.0.1'):
            self.assertIn("CREATE USER IF NOT EXISTS 'openstack'@'%s' "
                          "IDENTIFIED BY '%s';" % (host, PW), sql)
            self.assertIn("GRANT ALL ON *.* TO 'openstack'@'%s';" % host,
                          sql)
        for db in DBS:
            self.assertIn('CREATE DATABASE IF NOT EXISTS %s;' % db, sql)
        self.assertNotInArgv(PW, run)

    def test_a_missing_user_row_creates_them(self):
        run, (changed, _) = self.users('1\n3\n')
        self.assertTrue(changed)
        self.assertEqual(1, len(self.writes(run)))

    def test_check_mode_reads_and_writes_nothing(self):
        run, (changed, details) = self.users('0\n0\n', check=True)
        self.assertTrue(changed)
        self.assertEqual(0, details['user_rows'])
        self.assertEqual([], self.writes(run))
        self.assertNotInArgv(PW, run)

    def test_quotes_in_the_password_stay_inside_the_string(self):
        run, _ = self.users('0\n0\n', password="a'b\\c")
        sql = self.writes(run)[0][1]
        self.assertIn("IDENTIFIED BY 'a''b\\\\c';", sql)

    def test_a_name_that_is_not_plain_sql_fails_before_mysql(self):
        run = self.fake([])
        self.assertRaises(aio_backends.BackendError,
                          aio_backends.mariadb_users, '/etc/my.cnf',
                          'openstack', PW, ['nova; DROP DATABASE x'])
        self.assertEqual([], run.calls)

    def test_a_failure_names_mysql_and_hides_the_password(self):
        # mysql quotes the SQL near a syntax error.
        self.fake([(['-e'], '0\n0\n', 0),
                   (['-N'], '', 1, "ERROR 1064: near '%s'" % PW)])
        exc = self.assertRaises(aio_backends.BackendError,
                                aio_backends.mariadb_users, '/etc/my.cnf',
                                'openstack', PW, DBS)
        self.assertIn('mysql --defaults-file=/etc/my.cnf failed (exit 1)',
                      str(exc))
        self.assertNotIn(PW, str(exc))

    def test_a_failure_hides_the_password_as_sql_spells_it(self):
        # The statement mysql quotes holds the escaped literal.
        pw = "a'b\\c"
        self.fake([(['-e'], '0\n0\n', 0),
                   (['-N'], '', 1, "ERROR 1064: near 'a''b\\\\c'")])
        exc = self.assertRaises(aio_backends.BackendError,
                                aio_backends.mariadb_users, '/etc/my.cnf',
                                'openstack', pw, DBS)
        self.assertNotIn("a''b", str(exc))
        self.assertNotIn('b\\\\c', str(exc))

    def test_mysql_missing_is_a_clear_error(self):
        self.useFixture(fixtures.MockPatchObject(
            aio_backends.subprocess, 'run',
            side_effect=FileNotFoundError(2, 'No such file', 'mysql')))
        exc = self.assertRaises(aio_backends.BackendError,
                                aio_backends.mariadb_users, '/etc/my.cnf',
                                'openstack', PW, DBS)
        self.assertIn('cannot run mysql', str(exc))

    def test_the_password_option_is_no_log(self):
        self.assertTrue(mariadb_users.ARGUMENT_SPEC['password']['no_log'])

    def test_the_module_documents_its_options(self):
        self.assertDocumentsItsOptions(mariadb_users)
