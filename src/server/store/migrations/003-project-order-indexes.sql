-- Project lists sort by these columns; without indexes every page sorts the whole table.
CREATE INDEX projects_created_at ON projects(created_at);
CREATE INDEX projects_last_activity_at ON projects(last_activity_at);
CREATE INDEX projects_updated_at ON projects(updated_at);
CREATE INDEX projects_name_order ON projects(name);
CREATE INDEX projects_path_order ON projects(path);
CREATE INDEX projects_star_count ON projects(star_count);
CREATE INDEX projects_namespace ON projects(namespace_id);
