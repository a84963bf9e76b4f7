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
"""Put a compute service in the state a test needs, and always back.

``disable`` and ``force_down`` go through the os-services API (admin);
``stop`` runs ``[nova_conformance] compute_stop_command`` and the restore
runs ``compute_start_command``.  The first change to a host records the
service as os-services reports it and registers, before changing anything,
one cleanup that starts the service again if it was stopped, puts back
``forced_down`` and the enabled/disabled status (with its reason), then
waits until os-services reports the original status, forced_down and
up/down state.  Only the hosts ``[nova_conformance] disruptive_hosts``
lists are ever changed.  So a failing test still leaves every compute as it
found it, and the next test starts from a settled service.
"""

import shlex
import subprocess

from tempest import config
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters

CONF = config.CONF
BINARY = 'nova-compute'


class CommandFailed(lib_exc.TempestException):
    message = ('%(command)s %(outcome)s; stdout: %(stdout)s; '
               'stderr: %(stderr)s')


class ServiceStateTimeout(lib_exc.TimeoutException):
    message = ('nova-compute on %(host)s did not reach %(expected)s within '
               '%(timeout)s s; os-services reports %(actual)s')


def _state(service):
    return {'status': service['status'],
            'forced_down': service.get('forced_down', False),
            'state': service['state']}


def require_listed(option, name, change, none):
    """InvalidConfiguration unless ``[nova_conformance] option`` lists it.

    :param change: what would be done, for the message.
    :param none: what an empty option lists ("no host").
    """
    allowed = getattr(CONF.nova_conformance, option) or []
    if name not in allowed:
        raise lib_exc.InvalidConfiguration(
            'refusing to %s: [nova_conformance] %s lists only %s'
            % (change, option, ', '.join(allowed) or none))


class HostControl(object):

    def __init__(self, test, services_client, timeout=None, interval=None,
                 runner=subprocess.run):
        """:param services_client: an admin os-services client."""
        self.test = test
        self.client = services_client
        self.timeout = timeout
        self.interval = interval
        self.runner = runner
        # host -> {'service': original body, 'stopped': bool}
        self._touched = {}

    # -- queries -----------------------------------------------------------

    def service(self, host):
        """The nova-compute service body of ``host`` (at 2.53)."""
        with microversions.compute():
            services = self.client.list_services(
                binary=BINARY, host=host)['services']
        if len(services) != 1:
            raise lib_exc.InvalidConfiguration(
                'Expected one %s service on host %s, os-services lists %d'
                % (BINARY, host, len(services)))
        return services[0]

    def wait_for(self, host, **expected):
        """Wait until the service matches ``expected``; return its body.

        ``expected`` names any of status, forced_down and state.
        """
        timeout = self.timeout or CONF.nova_conformance.service_state_timeout
        interval = self.interval or waiters.poll_interval()
        return polling.poll(
            lambda: self.service(host),
            lambda service: all(_state(service)[k] == v
                                for k, v in expected.items()),
            timeout, interval,
            what='%s on %s to %s' % (BINARY, host, expected),
            describe=lambda service: str(_state(service)),
            timed_out=lambda service: ServiceStateTimeout(
                host=host, expected=expected, timeout=timeout,
                actual=_state(service)))

    # -- changes -----------------------------------------------------------

    def disable(self, host, reason='pending-tempest-plugin test'):
        """MAINTENANCE: disable scheduling to the host's compute."""
        service = self._remember(host)
        self._update(service, status='disabled', disabled_reason=reason)
        return self.wait_for(host, status='disabled')

    def enable(self, host):
        service = self._remember(host)
        self._update(service, status='enabled')
        return self.wait_for(host, status='enabled')

    def force_down(self, host):
        """DOWN: mark the host's compute forced down."""
        service = self._remember(host)
        self._update(service, forced_down=True)
        return self.wait_for(host, forced_down=True, state='down')

    def force_up(self, host):
        service = self._remember(host)
        self._update(service, forced_down=False)
        return self.wait_for(host, forced_down=False)

    def stop(self, host):
        """UNKNOWN: stop the compute and wait until it reads ``down``.

        That takes nova's ``service_down_time`` (60 s by default).
        """
        self._remember(host)
        self._touched[host]['stopped'] = True
        self.run_option('compute_stop_command', host=host)
        return self.wait_for(host, state='down')

    def start(self, host):
        self._remember(host)
        self.run_option('compute_start_command', host=host)
        self._touched[host]['stopped'] = False
        return self.wait_for(host, state='up')

    # -- internals ---------------------------------------------------------

    def _remember(self, host):
        """Record the original service once and register its restore.

        Refuses (InvalidConfiguration) a host that ``[nova_conformance]
        disruptive_hosts`` does not list, before anything is changed.
        """
        require_listed('disruptive_hosts', host,
                       'change nova-compute on %s' % host, 'no host')
        if host not in self._touched:
            service = self.service(host)
            self._touched[host] = {'service': service, 'stopped': False}
            self.test.addCleanup(self.restore, host)
        return self._touched[host]['service']

    def restore(self, host):
        """Put the service of ``host`` back as first seen; wait for it.

        A failing start command does not stop the os-services part of the
        restore; its error is raised once everything else was tried.
        """
        touched = self._touched.pop(host, None)
        if touched is None:
            return
        original = touched['service']
        start_error = None
        if touched['stopped']:
            try:
                self.run_option('compute_start_command', host=host)
            except CommandFailed as e:
                start_error = e
        wanted = _state(original)
        if self.service(host).get('forced_down') != wanted['forced_down']:
            self._update(original, forced_down=wanted['forced_down'])
        if self.service(host)['status'] != wanted['status']:
            extra = {}
            if original.get('disabled_reason'):
                extra['disabled_reason'] = original['disabled_reason']
            self._update(original, status=wanted['status'], **extra)
        if start_error is not None:
            raise start_error
        self.wait_for(host, **wanted)

    def _update(self, service, **changes):
        with microversions.compute():
            self.client.update_service(service['id'], **changes)

    @staticmethod
    def template(option):
        """The command template of ``[nova_conformance] option``.

        InvalidConfiguration when it is not set.
        """
        template = getattr(CONF.nova_conformance, option)
        if not template:
            raise lib_exc.InvalidConfiguration(
                '[nova_conformance] %s is not set' % option)
        return template

    def run_option(self, option, **fields):
        """Run the command of ``option``, its placeholders filled."""
        return self.run_command(self.template(option).format(**fields))

    def run_command(self, line):
        """Run an operator's command line; CommandFailed unless exit 0.

        Bounded by ``[nova_conformance] compute_command_timeout``.
        """
        command = shlex.split(line)
        timeout = CONF.nova_conformance.compute_command_timeout
        try:
            result = self.runner(command, capture_output=True, text=True,
                                 timeout=timeout, check=False)
        except subprocess.TimeoutExpired as e:
            raise CommandFailed(command=' '.join(command),
                                outcome='timed out after %s s' % timeout,
                                stdout=e.stdout, stderr=e.stderr)
        if result.returncode != 0:
            raise CommandFailed(command=' '.join(command),
                                outcome='exited %d' % result.returncode,
                                stdout=result.stdout, stderr=result.stderr)
        return result
