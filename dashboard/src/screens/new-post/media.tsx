/**
 * A post's media: files dropped or chosen are each uploaded at once (`POST /v1/media`, to the
 * post's profile), shown with a preview and their state, and can be removed before posting.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, api } from '../../api.ts';
import type { Account, Media } from '../../resources.ts';
import { ErrorNotice, Progress } from '../../ui.tsx';
import { Problems, problemsAt } from './problems.tsx';

interface Upload {
  key: string;
  name: string;
  preview: string | null;
  state: 'uploading' | 'done' | 'failed';
  media?: Media;
  error?: unknown;
}

export interface Uploads {
  list: Upload[];
  /** Uploads the files to `profileId`, one after another. */
  add: (files: FileList | File[]) => Promise<void>;
  remove: (key: string) => void;
  clear: () => void;
  /** The media uploaded, in order: the post's `media_ids`. */
  mediaIds: string[];
  busy: boolean;
}

/** Uploads one file to the media library of `profileId` (`POST /v1/media`). */
export async function uploadMedium(profileId: string, file: File): Promise<Media> {
  const form = new FormData();
  form.append('file', file);
  return await answer(
    api.POST('/v1/media', {
      params: { header: { 'service-profile': profileId } },
      // The form is what is sent; the body only names its part for the type.
      body: { file: file.name },
      bodySerializer: () => form,
    }),
  );
}

export function useUploads(profileId: string): Uploads {
  const [list, setList] = useState<Upload[]>([]);
  // Previews are object URLs of the chosen files; they go when the composer does.
  const shown = useRef<Upload[]>([]);
  shown.current = list;
  useEffect(
    () => () => {
      for (const u of shown.current) if (u.preview) URL.revokeObjectURL(u.preview);
    },
    [],
  );
  const add = async (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = crypto.randomUUID();
      const preview =
        file.type.startsWith('image/') || file.type.startsWith('video/') ? URL.createObjectURL(file) : null;
      setList((current) => [...current, { key, name: file.name, preview, state: 'uploading' }]);
      try {
        const media = await uploadMedium(profileId, file);
        setList((current) => current.map((u) => (u.key === key ? { ...u, state: 'done', media } : u)));
      } catch (error) {
        setList((current) => current.map((u) => (u.key === key ? { ...u, state: 'failed', error } : u)));
      }
    }
  };
  return {
    list,
    add,
    remove: (key) => setList(list.filter((u) => u.key !== key)),
    clear: () => setList([]),
    mediaIds: list.flatMap((u) => (u.media ? [u.media.id] : [])),
    busy: list.some((u) => u.state === 'uploading'),
  };
}

export function MediaField({
  uploads,
  disabled,
  error,
  accounts,
}: {
  uploads: Uploads;
  /** No profile to upload to yet. */
  disabled: boolean;
  error: unknown;
  accounts: readonly Account[];
}) {
  const [dragging, setDragging] = useState(false);
  return (
    <fieldset>
      <legend>Media</legend>
      <label
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (e.dataTransfer?.files) void uploads.add(e.dataTransfer.files);
        }}
      >
        Drop images, videos or a PDF here, or choose files
        <input
          type="file"
          multiple
          accept="image/*,video/*,application/pdf"
          disabled={disabled}
          onChange={(e) => {
            if (e.currentTarget.files) void uploads.add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <ul class="plain previews">
        {uploads.list.map((u) => (
          <li key={u.key} class="preview">
            {u.preview &&
            u.media?.type !== 'video' &&
            u.media?.type !== 'document' &&
            !u.name.match(/\.(mp4|mov|webm|pdf)$/i) ? (
              <img src={u.preview} alt={`Preview of ${u.name}`} />
            ) : null}
            <span class="small">{u.name}</span>
            {u.state === 'uploading' ? <Progress label={`Uploading ${u.name}…`} /> : null}
            {u.state === 'done' ? <span class="small muted"> uploaded</span> : null}
            {u.state === 'failed' ? <ErrorNotice error={u.error} /> : null}
            <button type="button" class="secondary small" onClick={() => uploads.remove(u.key)}>
              Remove<span class="visually-hidden"> {u.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <Problems id="media-problems" messages={problemsAt(error, 'media_ids', accounts)} />
    </fieldset>
  );
}
