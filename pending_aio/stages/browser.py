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
"""A report page as a person sees it: ``results.html`` in a real browser.

``python -m pending_aio browser-check PAGE REPORT_JSON SCREENSHOT``: opens
PAGE (the runner's ``results.html``) in Debian's headless Chromium, driven
by its chromedriver through Selenium, and checks what is displayed against
REPORT_JSON (the same run's ``report.json``):

- the title, the verdict's lines and each scope's status;
- every failed requirement's row, with its messages and the request ids
  of its failed tests;
- the outcome filters: "fail" shows the failed rows only (some rows of
  another outcome hidden), "all" shows every row again, for the
  requirements and for the tests.

It saves a screenshot of the page to SCREENSHOT.  Chromium and its driver
come from Debian (``chromium``, ``chromium-driver``; browser builds cannot
be downloaded here): installed by this check when it runs as root and they
are missing.  Exits 1 naming what the page does not show.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM = '/usr/bin/chromium'
CHROMEDRIVER = '/usr/bin/chromedriver'
# Headless, and nothing that reaches out: this machine's network is closed.
FLAGS = ('--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
         '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync',
         '--window-size=1400,1000')


def fail(message):
    sys.exit('browser-check: %s' % message)


def ensure_chromium():
    """Install Debian's chromium and chromium-driver if missing (root)."""
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return
    if os.geteuid() != 0:
        fail('%s or %s is missing: install the Debian packages chromium '
             'and chromium-driver' % (CHROMIUM, CHROMEDRIVER))
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    # Another stage may hold apt's lock (tox run-parallel): wait for it.
    wait = ['-o', 'DPkg::Lock::Timeout=600']
    for argv in (['apt-get'] + wait + ['install', '-y', '-q',
                                       '--no-install-recommends',
                                       'chromium', 'chromium-driver'],):
        proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if proc.returncode:
            # A stale package index: update it once and try again.
            subprocess.run(['apt-get'] + wait + ['update', '-q'], env=env,
                           stdout=subprocess.DEVNULL)
            proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        if proc.returncode:
            fail('apt-get could not install chromium and chromium-driver:\n'
                 + proc.stdout[-2000:])


def driver(profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument('--user-data-dir=%s' % profile)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER),
                            options=options)


def rows(browser, table):
    from selenium.webdriver.common.by import By
    return browser.find_elements(By.CSS_SELECTOR, '#%s tr.row' % table)


def check_filter(browser, name, outcome):
    """The ``outcome`` filter of table ``name`` shows its rows only."""
    from selenium.webdriver.common.by import By
    every = rows(browser, name)
    mine = [r for r in every if outcome in r.get_attribute('class').split()]
    others = [r for r in every if r not in mine]
    labels = browser.find_elements(
        By.CSS_SELECTOR, 'label[for="%s-%s"]' % (name, outcome))
    if not labels:
        fail('the %s have no "%s" filter' % (name, outcome))
    labels[0].click()
    shown = [r for r in every if r.is_displayed()]
    if shown != mine:
        fail('the "%s" filter of the %s shows %d row(s), expected its %d '
             '%s row(s)' % (outcome, name, len(shown), len(mine), outcome))
    if not others:
        fail('the %s have no row that the "%s" filter could hide: the '
             'check proves nothing' % (name, outcome))
    browser.find_element(
        By.CSS_SELECTOR, 'label[for="%s-all"]' % name).click()
    hidden = [r for r in every if not r.is_displayed()]
    if hidden:
        fail('the "all" filter of the %s leaves %d row(s) hidden'
             % (name, len(hidden)))
    return len(mine), len(others)


def check(page, report, screenshot):
    from selenium.webdriver.common.by import By
    profile = tempfile.mkdtemp(prefix='browser-check-')
    browser = driver(profile)
    try:
        browser.get('file://' + os.path.abspath(page))
        state = 'PASS' if report['verdict']['passed'] else 'FAIL'
        if browser.title != 'Conformance %s' % state:
            fail('title %r, expected %r' % (browser.title,
                                            'Conformance %s' % state))
        verdict = browser.find_element(By.ID, 'verdict').text
        for line in report['verdict']['lines']:
            if line.strip() and line.strip() not in verdict:
                fail('the verdict shown lacks %r' % line)
        scopes = {}
        for row in rows(browser, 'scopes'):
            cells = row.find_elements(By.TAG_NAME, 'td')
            scopes[cells[0].text] = cells[1].text
        want = {s['name']: s['status'] for s in report.get('scopes') or ()}
        if not want or scopes != want:
            fail('the scopes shown, %s, are not the report\'s, %s'
                 % (scopes, want))
        displayed = {}
        for row in rows(browser, 'requirements'):
            cells = row.find_elements(By.TAG_NAME, 'td')
            displayed[cells[0].text] = cells[-1].text
        failed = [r for r in report['requirements']
                  if r['outcome'] == 'fail']
        if not failed:
            fail('the report has no failed requirement: the check of '
                 'failure messages proves nothing')
        for req in failed:
            shown = displayed.get(req['id'])
            if shown is None:
                fail('requirement %s is not shown' % req['id'])
            # The browser's text collapses white space, as a person sees it.
            shown = ' '.join(shown.split())
            for text in ((req.get('messages') or [])[:1]
                         + list(req.get('request_ids') or [])):
                text = ' '.join(text.split())[:80]
                if text not in shown:
                    fail('requirement %s does not show %r' % (req['id'],
                                                              text))
        counts = [check_filter(browser, 'requirements', 'fail'),
                  check_filter(browser, 'tests', 'fail')]
        browser.execute_script('window.scrollTo(0, 0)')
        browser.save_screenshot(screenshot)
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print('browser-check: ok: %s in Chromium: title, verdict and scopes, '
          '%d failed '
          'requirement(s) with their messages and request ids, the "fail" '
          'filter (requirements %d shown / %d hidden, tests %d / %d) and '
          '"all"; screenshot %s' % ((page, len(failed))
                                    + counts[0] + counts[1] + (screenshot,)))


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: python -m pending_aio browser-check PAGE '
                 'REPORT_JSON SCREENSHOT')
    page, report_json, screenshot = argv
    with open(report_json) as f:
        report = json.load(f)
    ensure_chromium()
    check(page, report, screenshot)
    return 0
