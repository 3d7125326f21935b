# SPDX-License-Identifier: Apache-2.0
"""A private speech-dispatcher that says nothing and logs what it would say.

Its own runtime folder, home and configuration; ALSA's null device; one output module, sd_generic, whose
synth command appends each chunk to a log, then takes time per chunk as a voice would (so a message can
be cut), then writes a mark that the chunk was said whole. Clients started with ``environment()``
(libspeechd, spd-say) connect to it.
"""

import os
import shutil
import subprocess
import tempfile
import time

# Seconds a chunk takes to be "said", beside a second for every 400 bytes.
CHUNK_SECONDS = 0.4

LOGGER = """#!/bin/sh
# Logs the chunk on one line, "says" it (a time that grows with its length, as a voice's), then marks it
# said whole. Cut by speech-dispatcher (the process is killed), the mark is never written.
printf 'START %s %s\\n' "$2" "$(printf '%s' "$1" | tr '\\n' ' ')" >> "$EFB_SPEECH_LOG"
sleep "$(printf '%s' "$1" | wc -c | awk '{{ printf "%.2f", {seconds} + $1 / 400 }}')"
printf 'END\\n' >> "$EFB_SPEECH_LOG"
"""


class PrivateSpeechDispatcher:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="efb-speechd-")
        self.runtime = os.path.join(self.root, "run")
        self.home = os.path.join(self.root, "home")
        self.config = os.path.join(self.home, ".config")
        self.log = os.path.join(self.root, "spoken.log")
        os.makedirs(self.runtime, mode=0o700)
        os.chmod(self.runtime, 0o700)
        os.makedirs(os.path.join(self.config, "speech-dispatcher", "modules"))
        with open(os.path.join(self.home, ".asoundrc"), "w") as f:
            f.write("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
        logger = os.path.join(self.root, "say")
        with open(logger, "w") as f:
            f.write(LOGGER.format(seconds=CHUNK_SECONDS))
        os.chmod(logger, 0o755)
        open(self.log, "w").close()
        speechd = os.path.join(self.config, "speech-dispatcher")
        with open(os.path.join(speechd, "speechd.conf"), "w") as f:
            f.write(
                'AudioOutputMethod "alsa"\n'
                'AddModule "logger" "sd_generic" "logger.conf"\n'
                'DefaultModule logger\n'
                'Timeout 0\n'
                'LogLevel 3\n'
            )
        with open(os.path.join(speechd, "modules", "logger.conf"), "w") as f:
            f.write(
                f'GenericExecuteSynth "{logger} \\"$DATA\\" \\"$LANGUAGE\\""\n'
                'GenericCmdDependency "printf"\n'
                'GenericMaxChunkLength 100000\n'
                'GenericDelimiters "\\n"\n'
                'AddVoice "en" "MALE1" "en"\n'
                'AddVoice "fr" "MALE1" "fr"\n'
                'GenericLanguage "en" "en" "utf-8"\n'
                'GenericLanguage "fr" "fr" "utf-8"\n'
            )
        self.process = None

    def environment(self):
        env = dict(os.environ)
        env.update(
            HOME=self.home,
            XDG_RUNTIME_DIR=self.runtime,
            XDG_CONFIG_HOME=self.config,
            EFB_SPEECH_LOG=self.log,
        )
        env.pop("SPEECHD_ADDRESS", None)
        return env

    def start(self, timeout=15.0):
        logs = os.path.join(self.root, "logs")
        os.makedirs(logs)
        self.process = subprocess.Popen(
            ["speech-dispatcher", "-s", "-t", "0", "-C", os.path.join(self.config, "speech-dispatcher"), "-L", logs],
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        socket = os.path.join(self.runtime, "speech-dispatcher", "speechd.sock")
        deadline = time.monotonic() + timeout
        while not os.path.exists(socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"speech-dispatcher did not start (logs in {logs})")
            time.sleep(0.05)
        return self

    def chunks(self):
        """Every chunk begun, in order: [language, text, said whole]."""
        result = []
        with open(self.log, encoding="utf-8", errors="replace") as f:
            for line in f.read().splitlines():
                if line.startswith("START "):
                    language, _, text = line[6:].partition(" ")
                    result.append([language, text.strip(), False])
                elif line == "END" and result:
                    result[-1][2] = True
        return result

    def utterances(self):
        """Every chunk begun, in order: (text, said whole)."""
        return [(text, whole) for _, text, whole in self.chunks()]

    def languages(self):
        """The language of every chunk begun, in order."""
        return [language for language, _, _ in self.chunks()]

    def wait_quiet(self, quiet=1.5, timeout=30.0):
        """Waits until the log has not grown for `quiet` seconds and the last chunk ended (bounded)."""
        deadline = time.monotonic() + timeout
        last = (-1, 0.0)
        while time.monotonic() < deadline:
            size = os.path.getsize(self.log)
            if size != last[0]:
                last = (size, time.monotonic())
            elif time.monotonic() - last[1] >= quiet:
                return
            time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)
