# The croupier bot. Built by docker-compose.yml; usable alone:
#   docker build -t croupier . && docker run --env-file .env croupier
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

RUN useradd --create-home --home-dir /home/croupier --uid 10001 croupier \
 && python -m venv /opt/venv

WORKDIR /app

# Dependencies first, from pyproject.toml alone, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir engine bot \
 && touch engine/__init__.py bot/__init__.py \
 && pip install . \
 && pip uninstall --yes croupier \
 && rm -rf engine bot build croupier.egg-info

# The project itself. Installed in place (editable) because `croupier migrate` finds the Alembic
# revisions in /app/migrations next to the package, as in a checkout. /app/data, where a SQLite
# database would live, is the croupier user's alone: the database holds the open games' seeds.
COPY alembic.ini ./
COPY migrations ./migrations
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-deps --editable . \
 && mkdir -p /app/data \
 && chown croupier:croupier /app/data \
 && chmod 0700 /app/data

USER croupier

CMD ["croupier", "run"]
