"""Flask extensions, created unbound here and bound to an app in `create_app`."""

from typing import TYPE_CHECKING

from flask_babel import Babel  # type: ignore[import-untyped]
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints let Alembic's batch mode (how SQLite alters tables) find and
# drop them again; unnamed ones cannot be referred to in a later migration.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base for all models."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
# English and German; the locale selector and catalogs are set up in `scorekeeper.i18n`.
babel = Babel()
# Every form and htmx request of the pages carries a CSRF token; the JSON API blueprint
# (bearer tokens, no cookies) is exempted with `csrf.exempt`.
csrf = CSRFProtect()

if TYPE_CHECKING:
    # mypy cannot use an attribute such as `db.Model` as a base class (python/mypy#8603).
    # Models subclass `Model` instead: for mypy that is `Base`, which `db.Model` is built
    # from (same metadata and annotations); at run time it is `db.Model` itself.
    Model = Base
else:
    Model = db.Model
