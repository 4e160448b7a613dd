-- What a merge asked for when it was deferred to the head pipeline (merge when pipeline succeeds): the merge and squash
-- commit messages and whether to squash, as JSON, so the merge done later is the one that was asked for (GitLab's
-- merge_params).
ALTER TABLE merge_requests ADD COLUMN merge_params TEXT;
