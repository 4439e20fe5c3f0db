"""Configuration: defaults, the example file, environment overrides and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_config_loads_with_the_defaults() -> None:
    """config.example.toml is valid and matches the built-in defaults."""
    config = load_config(ROOT / "config.example.toml", environ={})
    assert config.tables == Config().tables
    assert config.tournaments == Config().tournaments
    assert config.database.path == "./parlor.db"


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    """DISCORD_TOKEN and PARLOR_DB win over the file."""
    path = write(tmp_path, '[discord]\ntoken = "file-token"\n[database]\npath = "a.db"\n')
    config = load_config(path, environ={"DISCORD_TOKEN": "env-token", "PARLOR_DB": "b.db"})
    assert config.discord.token == "env-token"
    assert config.database.path == "b.db"


def test_a_shard_process_is_configured_from_the_environment(tmp_path: Path) -> None:
    """PARLOR_DATABASE_URL, PARLOR_SHARD_COUNT and PARLOR_SHARD_IDS (what compose.yaml sets per process) win
    over the file; database.url wins over database.path; no url keeps the SQLite file."""
    path = write(tmp_path, '[discord]\nshard_count = 4\n[database]\npath = "a.db"\n')
    assert load_config(path, environ={}).database.target == "a.db"
    config = load_config(path, environ={"PARLOR_DATABASE_URL": "postgresql://p@db:5432/parlor",
                                        "PARLOR_SHARD_COUNT": "2", "PARLOR_SHARD_IDS": "1"})
    assert config.database.target == "postgresql://p@db:5432/parlor"
    assert (config.discord.shard_count, config.discord.shard_ids) == (2, (1,))
    with pytest.raises(ConfigError, match="discord.shard_ids"):
        load_config(path, environ={"PARLOR_SHARD_COUNT": "2", "PARLOR_SHARD_IDS": "0,2"})


def test_parlor_config_names_the_file(tmp_path: Path) -> None:
    """PARLOR_CONFIG chooses the file."""
    path = write(tmp_path, "[logging]\nlevel = \"DEBUG\"\n")
    assert load_config(environ={"PARLOR_CONFIG": str(path)}).logging.level == "DEBUG"


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ("[tables]\nrace_window_ms = -5\n", "tables.race_window_ms", "from 0 to 2000"),
        ("[tournaments]\nno_show_minutes = 0\n", "tournaments.no_show_minutes", "from 1 to 240"),
        ("[tournaments]\norganizer_role_ids = [\"x\"]\n", "tournaments.organizer_role_ids", "whole numbers"),
        ("[tables]\nrace_window_ms = \"fast\"\n", "tables.race_window_ms", "whole number"),
        ("[tables]\nspeed = 3\n", "tables.speed", "unknown key"),
        ("[logging]\nlevel = \"LOUD\"\n", "logging.level", "DEBUG"),
        ("[bogus]\nx = 1\n", "bogus", "unknown section"),
        ("[discord]\napi_base = \"ftp://x\"\n", "discord.api_base", "http://"),
        ("[tables]\nturn_timeout_seconds = 10\nturn_warning_seconds = 20\n", "tables.turn_warning_seconds",
         "less than"),
        ("[discord]\nshard_count = 2\nshard_ids = [2]\n", "discord.shard_ids", "0 to discord.shard_count-1"),
        ("not toml at all [", "c.toml", "not valid TOML"),
        ("[discord]\napi_base = \"http://127.0.0.1:1/api/v10\"\n", "discord.api_base / discord.gateway", "both"),
    ],
)
def test_bad_values_name_the_key_and_what_was_expected(tmp_path: Path, text: str, key: str, expected: str) -> None:
    """Each invalid value raises ConfigError naming its key and the expectation."""
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text), environ={})
    assert key in info.value.key
    assert expected in str(info.value)


def test_missing_named_file_is_an_error(tmp_path: Path) -> None:
    """A PARLOR_CONFIG that points nowhere is refused, naming the variable."""
    with pytest.raises(ConfigError) as info:
        load_config(environ={"PARLOR_CONFIG": str(tmp_path / "nope.toml")})
    assert info.value.key == "PARLOR_CONFIG"


def test_missing_token_message_says_how_to_get_one() -> None:
    """require_token names DISCORD_TOKEN and points to the developer portal."""
    with pytest.raises(ConfigError) as info:
        Config().require_token()
    assert "DISCORD_TOKEN" in str(info.value)
    assert "developers/applications" in str(info.value)
